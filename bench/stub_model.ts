/**
 * An OpenAI-compatible chat-completions server that answers at once with a
 * fixed reply: the load harness's stand-in for the hosted model, so the chat
 * figures measure the service, not a model. Unlike tests/fake_openai.ts it
 * keeps nothing per request (a load run sends tens of thousands).
 *
 *   deno run -A bench/stub_model.ts <port>
 */
const REPLY = "¡Hola! Te recomiendo la **Plaza Principal de Tequila**: " +
  "[ver atractivo](/turismo/atractivos/plaza-principal). 🌵";

const body = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_790_000_000,
  model: "bench",
  choices: [{
    index: 0,
    message: { role: "assistant", content: REPLY, refusal: null },
    logprobs: null,
    finish_reason: "stop",
  }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

if (import.meta.main) {
  const port = Number(Deno.args[0] ?? 0);
  Deno.serve({ hostname: "127.0.0.1", port }, async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 404 });
    await request.body?.cancel();
    return new Response(body, {
      headers: { "content-type": "application/json" },
    });
  });
}
