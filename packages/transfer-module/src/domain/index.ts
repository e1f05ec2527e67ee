export * from './bank-status';
export * from './cbu-cvu';
export * from './cuit';
export * from './origin-id';
export * from './violation';
