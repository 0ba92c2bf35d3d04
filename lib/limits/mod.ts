/**
 * The chat's per-address rate limit (the per-IP budget and the daily chat limit
 * are built by app.ts and deps.ts). Routes, components and scripts import this
 * entry, never the folder's insides.
 *
 * @module
 */
export { limitChatRate } from "./chat_limit.ts";
