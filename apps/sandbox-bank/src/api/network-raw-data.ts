import type { BankStatus } from '@giro/transfer-module';
import type { MovementIds } from '../ledger/ledger';
import type { Movement } from '../ledger/movement';
import { NETWORK_NAME } from './movement-answer';
import { personNameOf } from './person-names';
import { wireDatetime } from './wire-datetime';

/** The network's own status words (a COELSA-like vocabulary, invented for the sandbox). */
const NETWORK_STATUS: Record<BankStatus, { codigo: string; descripcion: string }> = {
  CREATED: { codigo: 'INICIADA', descripcion: 'Transferencia recibida por la red' },
  IN_PROGRESS: { codigo: 'EN_CURSO', descripcion: 'Transferencia en proceso de acreditación' },
  DELAYED: { codigo: 'DEMORADA', descripcion: 'Acreditación demorada por la entidad destino' },
  COMPLETED: { codigo: 'ACREDITADA', descripcion: 'Transferencia acreditada' },
  FAILED: { codigo: 'RECHAZADA', descripcion: 'Transferencia rechazada por la entidad destino' },
};

/**
 * The answer of get-movement with `getRawData: true`: the movement in the network's format. The bank does not
 * show that format (docs/bank-api.md#get-a-movement); this one is invented (documented in the app README) so
 * that clients can prove they keep it opaque.
 */
export interface NetworkRawData {
  formato: 'COELSA-TRF-1';
  red: string;
  transferencia: {
    id_coelsa: string;
    id_debin: string;
    id_origen: string;
    estado: { codigo: string; descripcion: string };
    fecha_alta: string;
    fecha_fin: string | null;
    importe: { moneda: '032'; monto: string };
    concepto: string;
    referencia: string;
    ordenante: { cuit: string; cbu: string; titular: string };
    beneficiario: { cuit: string; cbu: string; titular: string };
  };
}

export function networkRawData(movement: Movement, ids: MovementIds, nowMs: number): NetworkRawData {
  const { transfer } = movement;
  const finalAtMs = movement.finalAtMs(nowMs);
  return {
    formato: 'COELSA-TRF-1',
    red: NETWORK_NAME,
    transferencia: {
      id_coelsa: ids.networkId,
      id_debin: ids.debinId,
      id_origen: String(transfer.originId),
      estado: NETWORK_STATUS[movement.statusAt(nowMs)],
      fecha_alta: wireDatetime(movement.createdAtMs),
      fecha_fin: finalAtMs === undefined ? null : wireDatetime(finalAtMs),
      importe: { moneda: '032', monto: transfer.amount },
      concepto: transfer.concept,
      referencia: transfer.description,
      ordenante: {
        cuit: transfer.fromPersonId,
        cbu: transfer.fromAddress,
        titular: personNameOf(transfer.fromPersonId),
      },
      beneficiario: { cuit: transfer.toPersonId, cbu: transfer.toAddress, titular: personNameOf(transfer.toPersonId) },
    },
  };
}
