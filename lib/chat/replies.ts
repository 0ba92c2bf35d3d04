/** Spanish replies of the chat endpoint, whose errors are `{reply}`. */
export const CHAT_REPLIES: Record<number, string> = {
  400: "No recibí un mensaje válido. Escribe tu pregunta e inténtalo de nuevo.",
  408:
    "Tu mensaje tardó demasiado en llegar. Revisa tu conexión e inténtalo de nuevo.",
  413: "Tu mensaje es demasiado largo. Intenta con un texto más corto.",
  415: "No recibí un mensaje válido. Escribe tu pregunta e inténtalo de nuevo.",
  429:
    "Has enviado muchas preguntas seguidas. Espera un momento antes de volver a preguntar. ⏳",
  502:
    "El asistente tiene problemas para responder ahora mismo. Inténtalo de nuevo en unos instantes.",
  503:
    "El chat no está disponible en este momento. Vuelve a intentarlo más tarde.",
  500: "Ocurrió un error de conexión. Por favor, inténtalo más tarde.",
};

/** When the operator's daily ceiling on chat requests is reached (`CHAT_DAILY_LIMIT`). */
export const CHAT_DAILY_LIMIT_REPLY =
  "El asistente ya atendió hoy todas las preguntas que podía. Vuelve a preguntar mañana; mientras tanto, en el portal tienes los atractivos, las rutas y la información práctica.";

/** Paths whose errors are `{reply}` bodies (docs/API.md, chat). */
export function isChatPath(path: string): boolean {
  return path === "/api/chat" || path.startsWith("/api/chat/");
}
