export * from './error-codes.js';
export * from './error-body.js';
export * from './envelope.js';
export * from './nats.js';
export * from './status-list.js';
export * from './intent-notice.js';
export * from './inter-service.js';
