/**
 * What the model writes first when the data set does not answer the
 * question (the system prompt asks for it; unanswered.ts strips it and
 * records the question). Its own module so the prompt, built at start, does
 * not load unanswered.ts's masking (libphonenumber-js's metadata, about 10
 * MiB and 40 ms) before the first chat.
 */
export const NO_DATA_MARKER = "[SIN_DATOS]";
