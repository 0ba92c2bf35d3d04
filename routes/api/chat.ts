import { createRoute, z } from "@hono/zod-openapi";
import {
  buildChatMessages,
  buildRequestContext,
  chatLanguage,
  completeChat,
  countChatOutcomes,
  getReplyLang,
  noteUnansweredQuestion,
  parseChatInput,
  respondWithEventStream,
  streamChat,
  stripNoDataMarker,
  stripNoDataMarkerFromStream,
  wantsEventStream,
} from "@/lib/chat/mod.ts";
import { getApiLang } from "@/lib/http/mod.ts";
import { createRouter } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import { localizeData } from "@/lib/data/mod.ts";
import { getLangs } from "@/lib/i18n/mod.ts";
import { limitChatRate } from "@/lib/limits/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { apiMessage, ServiceUnavailableError } from "@/lib/errors/mod.ts";

// Lenient on purpose (docs/API.md, chat): bad history entries and a bad
// location are dropped, not refused, so they are documented, not validated.
const ChatRequest = z.object({
  message: z.string().openapi({
    description: "Trimmed; empty is a 400; cut at 500 characters",
    example: "¿Qué puedo visitar cerca de la plaza?",
  }),
  history: z.unknown().optional().openapi({
    type: "array",
    items: {
      type: "object",
      properties: {
        role: { type: "string", enum: ["user", "assistant"] },
        content: { type: "string" },
      },
      required: ["role", "content"],
    },
    description:
      "Earlier turns, oldest first. Only the last 8 valid entries are used, each cut at 500 characters; other entries are ignored",
  }),
  lang: z.unknown().optional().openapi({
    type: "string",
    enum: getLangs(),
    description:
      "The language the widget asks in: the reply, its links and its error replies are in it. Optional: without it (or with a language the portal does not have) `Accept-Language` decides, and without that, Spanish",
    example: "en",
  }),
  location: z.unknown().optional().openapi({
    type: "object",
    properties: {
      lat: { type: "number", minimum: -90, maximum: 90 },
      lng: { type: "number", minimum: -180, maximum: 180 },
    },
    required: ["lat", "lng"],
    description: "The visitor's position; ignored when out of range",
  }),
}).openapi("ChatRequest");

const Reply = z.object({ reply: z.string() }).openapi("ChatReply");

function createChatRoute(deps: AppDeps) {
  return createRoute({
    method: "post",
    path: "/",
    operationId: "askAssistant",
    tags: [TAGS.assistant],
    summary: "Ask the tourism assistant",
    description:
      'Answers in Markdown from the tourism data set, in the language the question is written in when it is clearly Spanish or English (else that of the visitor\'s last clear question in `history`, else the page\'s: `lang`, else `Accept-Language`, else Spanish), with links to that language\'s pages; error replies are in that language too. With `Accept: text/event-stream` the reply is streamed as server-sent events: `data: {"delta": "..."}` chunks, then `event: done`, or `event: error` with `{reply}`.',
    security: SECURITY.public,
    middleware: [
      countChatOutcomes(deps),
      chatLanguage(),
      limitChatRate(deps),
    ] as const,
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: ChatRequest } },
      },
    },
    responses: {
      200: {
        description: "The assistant's reply in Markdown",
        content: {
          "application/json": { schema: Reply },
          "text/event-stream": { schema: z.string() },
        },
      },
      ...errorResponses({
        400: "message missing, not a string or empty",
        429: "More than 20 requests in 60 seconds from this address",
        502: "The language-model provider failed or timed out",
        503:
          "No language-model key is configured, or the day's ceiling (CHAT_DAILY_LIMIT) is reached",
      }, { jsonBody: true, schema: Reply }),
    },
  });
}

export default function chat(deps: AppDeps) {
  return createRouter().openapi(createChatRoute(deps), async (c) => {
    const input = parseChatInput(c.req.valid("json"));
    // The question's own language wins over the page's (docs/API.md, chat).
    const lang = getReplyLang({
      message: input.message,
      history: input.history,
      pageLang: getApiLang(c),
    });
    c.set("apiLang", lang);
    if (!deps.openai) {
      throw new ServiceUnavailableError(apiMessage("model.notConfigured"));
    }
    const openai = await deps.openai();
    await deps.chatDailyLimit?.count();
    const loaded = deps.data.current();
    const request = {
      model: deps.config.openai.model,
      messages: buildChatMessages({
        stablePrompt: await deps.prompts.get(loaded, deps.now(), lang),
        requestContext: buildRequestContext(localizeData(loaded.data, lang), {
          now: deps.now(),
          location: input.location,
          lang,
        }),
        input,
      }),
    };
    // A reply marked "not in the data" has its marker taken out and its
    // question recorded for the tourism office (lib/chat/unanswered.ts).
    const noteQuestion = () =>
      noteUnansweredQuestion(deps.kv, {
        question: input.message,
        now: deps.now(),
        timeZone: loaded.data.municipality.timeZone,
      });
    if (wantsEventStream(c.req.header("accept"))) {
      return respondWithEventStream(
        c,
        async (signal) =>
          stripNoDataMarkerFromStream(
            await streamChat(openai, { ...request, signal }),
            noteQuestion,
            lang,
          ),
        lang,
      );
    }
    const reply = stripNoDataMarker(
      await completeChat(openai, request),
      lang,
    );
    if (reply.unanswered) await noteQuestion();
    return c.json({ reply: reply.text }, 200);
  });
}
