export * from './bank';
export * from './domain';
export * from './persistence';
