// Who the audit trail records for a change made on the command line: declared in the domain, where key names
// are kept from taking its name.
export { CLI_ACTOR } from '@giro/transfer-module';
