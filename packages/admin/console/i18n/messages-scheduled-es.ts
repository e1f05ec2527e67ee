// The texts of scheduled transfers in Spanish: the "Programadas" page, the dashboard's figures, the execution day
// of the create form, a transfer's schedule and cancel, a batch row's day and flags, and the approvals' preview.

export const SCHEDULED_ES = {
  'tabs.label': 'Vistas de las transferencias',
  'tabs.all': 'Todas',
  'nav.scheduled': 'Programadas',
  'scheduled.title': 'Transferencias programadas',
  'scheduled.explain':
    'Se envían al banco en su momento, nunca antes. Hasta entonces un operador puede anularlas: quedan anuladas y no se envían.',
  'scheduled.day': 'Día de envío',
  'scheduled.account': 'Cuenta de origen',
  'scheduled.filter': 'Filtrar',
  'scheduled.clear': 'Ver todas',
  'scheduled.none': 'Ninguna transferencia programada coincide.',
  'scheduled.executeAt': 'Se envía',
  'scheduled.requested': 'Pedido',
  'scheduled.select': 'Elegir la transferencia {originId}',
  'scheduled.selectAll': 'Elegir todas las de la lista',
  'scheduled.cancelOne': 'Anular {count} transferencia por {total}',
  'scheduled.cancelMany': 'Anular {count} transferencias por {total}',
  'scheduled.cancelNone': 'Elegí las transferencias para anular',
  'scheduled.confirmTitle': '¿Anular estas transferencias?',
  'scheduled.confirmText': 'No se enviarán nunca; el cupo de su cuenta queda libre. No se puede deshacer.',
  'scheduled.confirm': 'Sí, anular',
  'scheduled.keep': 'No, dejarlas',
  'scheduled.canceled': 'Anuladas: {count}.',
  'scheduled.totals': 'Totales por día y cuenta (todas las que el filtro toma, no solo esta página)',
  'scheduled.totalsTruncated':
    'Hay más días y cuentas: se muestran los primeros. Filtrá por día o por cuenta para ver el resto.',

  'scheduled.movedFrom': 'pedida para el {day}, día no hábil',
  'scheduled.askedAt': 'pedida para {moment}',

  'source.release': 'liberada en su momento: va al banco',
  'source.cancel': 'anulada antes de enviarla',

  'dashboard.scheduled': 'Programadas',
  'dashboard.scheduledToday': 'Hoy',
  'dashboard.scheduledTomorrow': 'Mañana',
  'dashboard.scheduledNone': 'nada programado',
  'dashboard.scheduledFigure': '{amount} en {count} transferencias',
  'dashboard.scheduledFigureOne': '{amount} en 1 transferencia',

  'create.executeOn': 'Día de envío (opcional)',
  'create.executeOnHint':
    'dd/mm/aaaa. Vacío: se envía ahora. Un feriado o fin de semana se corre según la regla configurada.',

  'detail.schedule': 'Programación',
  'detail.executeAt': 'Momento de envío',
  'detail.requested': 'Pedido',
  'detail.requestedDay': 'el día {day}',
  'detail.requestedMoment': 'a las {moment}',
  'detail.cancelScheduled': 'Anular esta transferencia',
  'detail.cancelConfirm': '¿Anular la transferencia {originId} por {total}? No se enviará nunca.',
  'detail.canceled': 'Anulada: no se envía.',

  'batch.day': 'Se envía',
  'batch.now': 'al confirmar',
  'batch.blocked': 'cuenta bloqueada',
  'batchOutcome.blocked': 'rechazada: la cuenta de destino está bloqueada',

  'approvals.approveOne': 'Aprobar {count} transferencia por {total}',
  'approvals.approveMany': 'Aprobar {count} transferencias por {total}',
  'approvals.rejectOne': 'Rechazar {count} transferencia por {total}',
  'approvals.rejectMany': 'Rechazar {count} transferencias por {total}',
  'approvals.chooseSome': 'Elegí transferencias para decidir varias a la vez.',
  'approvals.selectedTitle': 'Lo que vas a decidir',
  'approvals.selectedTotal': 'Total elegido',
  'approvals.selectedCount': '{count} transferencias',
  'approvals.selectedCountOne': '1 transferencia',
  'approvals.actions': 'Decidir',
  'approvals.approveRow': 'Aprobar',
  'approvals.rejectRow': 'Rechazar',
  'approvals.approveRowLabel': 'Aprobar la transferencia {originId}',
  'approvals.rejectRowLabel': 'Rechazar la transferencia {originId}',
  'approvals.reasonFirst': 'Para rechazar, escribí antes el motivo.',
} as const;
