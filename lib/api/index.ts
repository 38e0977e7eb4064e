export * from './client';
export * from './contract';
export * from './errors';
export type { ChangeOptions, Token, TokenSource } from './http';
export type { CountCheck, FetchOptions, Inbox, WalkOptions } from './inbox';
export type { LiveChannel, LiveClose, LiveEvents, WebSocketConstructor, WebSocketLike } from './live';
export { liveUrl, MAX_LIVE_FRAME_CHARS } from './live';
export type { UserHandle } from './user';
