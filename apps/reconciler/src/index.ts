// The reconciler as a library, for those who run it from code (tests, a custom entry point) rather than with
// the `giro-reconciler` command.
export { ConfigError, type ReconcilerConfig, reconcilerConfigFromEnv } from './config/reconciler-config';
export { ReconcilerModule, type ReconcilerModuleOptions } from './reconciler.module';
export { createReconcilerApp } from './reconciler-app';
