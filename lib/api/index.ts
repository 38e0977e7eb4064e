export * from './client';
export * from './contract';
export * from './errors';
export type { Token, TokenSource } from './http';
export type { CountCheck, FetchOptions, Inbox, WalkOptions } from './inbox';
export type { UserHandle } from './user';
