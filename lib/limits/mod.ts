/**
 * The chat's and the partner PIN's per-address rate limits (the per-IP
 * budget and the daily chat limit are built by app.ts and deps.ts). Routes,
 * components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export { limitChatRate } from "./chat_limit.ts";
export {
  hitPartnerPinLimit,
  PARTNER_PIN_RATE_LIMIT,
} from "./partner_pin_limit.ts";
