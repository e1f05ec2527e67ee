export * from './certs/dev-certificates';
