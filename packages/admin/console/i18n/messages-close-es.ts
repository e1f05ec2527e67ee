// The daily close's texts in Spanish (the "Cierre del día" page).

export const CLOSE_ES = {
  'nav.close': 'Cierre',
  'close.title': 'Cierre del día',
  'close.explain':
    'Lo que salió de cada cuenta en un día de Buenos Aires: creadas, enviadas, completadas, fallidas, rechazadas y canceladas ese día, y lo que seguía pendiente al terminar.',
  'close.date': 'Día del cierre',
  'close.show': 'Ver',
  'close.none': 'Ninguna transferencia cuenta en este día.',
  'close.figure': 'Cifra',
  'close.totals': 'Total',
  'close.created': 'Creadas',
  'close.sent': 'Enviadas',
  'close.completed': 'Completadas',
  'close.failed': 'Fallidas',
  'close.failedSplit': '{registered} registradas, {unregistered} sin registrar',
  'close.rejected': 'Rechazadas',
  'close.canceled': 'Canceladas',
  'close.pendingAtEnd': 'Pendientes al cierre',
  'close.oldest': 'la más antigua:',
  'close.awaitingApprovalAtEnd': 'Esperando aprobación',
  'close.scheduledAtEnd': 'Programadas',
  'close.count': 'cantidad: {count}',
  'close.exportCsv': 'Descargar CSV',
  'close.exportExcelCsv': 'CSV para Excel',
  'close.exportXlsx': 'Descargar .xlsx',
} as const;
