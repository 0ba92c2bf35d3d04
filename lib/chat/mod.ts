/**
 * The tourist chat (`POST /api/chat`): the question read and masked, the prompt
 * built from the data set, the model's answer (streamed or whole), its
 * language, the per-day outcome counters and the questions it could not answer.
 * The chat's own error bodies (`{reply}`) are registered by app.ts from
 * `replies.ts`, on the start path. Routes, components and scripts import this
 * entry, never the folder's insides.
 *
 * @module
 */
export { chatLanguage } from "./chat_lang.ts";
export { parseChatInput } from "./input.ts";
export { completeChat, streamChat } from "./model.ts";
export { countChatOutcomes } from "./outcomes.ts";
export { buildChatMessages, buildRequestContext } from "./prompt.ts";
export { getReplyLang } from "./question_lang.ts";
export { respondWithEventStream, wantsEventStream } from "./stream.ts";
export {
  noteUnansweredQuestion,
  stripNoDataMarker,
  stripNoDataMarkerFromStream,
} from "./unanswered.ts";
