import assert from "node:assert/strict";
import {
  apiMessage,
  BadGatewayError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  sayApiText,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableEntityError,
} from "./mod.ts";

Deno.test("named errors: each stands for its status, in Spanish first", async (t) => {
  await t.step("status, name and the Spanish `error` of each", () => {
    const details = "Detalles";
    const cases: [HttpError, number, string, string][] = [
      [
        new BadRequestError(details),
        400,
        "BadRequestError",
        "Solicitud no válida",
      ],
      [
        new UnauthorizedError(details),
        401,
        "UnauthorizedError",
        "No autorizado",
      ],
      [new ForbiddenError(details), 403, "ForbiddenError", "Prohibido"],
      [new NotFoundError(details), 404, "NotFoundError", "No encontrado"],
      [new ConflictError(details), 409, "ConflictError", "Conflicto"],
      [
        new UnprocessableEntityError(details),
        422,
        "UnprocessableEntityError",
        "No se puede registrar",
      ],
      [
        new TooManyRequestsError(details, 60),
        429,
        "TooManyRequestsError",
        "Demasiadas solicitudes",
      ],
      [
        new BadGatewayError(details),
        502,
        "BadGatewayError",
        "Error de un servicio externo",
      ],
      [
        new ServiceUnavailableError(details),
        503,
        "ServiceUnavailableError",
        "Servicio no disponible",
      ],
    ];
    for (const [error, status, name, message] of cases) {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, status, name);
      assert.equal(error.name, name);
      assert.equal(error.message, message, name);
      assert.equal(error.details, details, name);
    }
  });

  await t.step("the body's extra fields and Retry-After travel with it", () => {
    assert.deepEqual(
      new ConflictError("Ya", { shareCode: "ruta-01" }).options.body,
      { shareCode: "ruta-01" },
    );
    assert.equal(
      new TooManyRequestsError("Espera", 90).options.retryAfterSeconds,
      90,
    );
  });

  await t.step(
    "describe says error and details again in another language",
    () => {
      const error = new BadGatewayError(apiMessage("cms.timeout"));
      assert.equal(error.details, "El CMS no respondió a tiempo");
      assert.deepEqual(error.describe("en"), {
        error: "External service error",
        details: "The CMS did not answer in time",
        reply: undefined,
      });
      assert.deepEqual(error.describe("es"), {
        error: "Error de un servicio externo",
        details: "El CMS no respondió a tiempo",
        reply: undefined,
      });
    },
  );

  await t.step("a fixed string stays the same in every language", () => {
    const error = new ForbiddenError("Solo para el personal");
    assert.equal(error.describe("en").details, "Solo para el personal");
  });
});

Deno.test("sayApiText: values are said in the message's language", async (t) => {
  await t.step("a number takes the language's plural", () => {
    const text = apiMessage("limit.tickets", { minutes: 1 });
    assert.match(sayApiText(text, "es"), /Espera 1 minuto antes/);
    assert.match(sayApiText(text, "en"), /Wait 1 minute before/);
    assert.match(
      sayApiText(apiMessage("limit.tickets", { minutes: 5 }), "en"),
      /Wait 5 minutes before/,
    );
  });

  await t.step("a nested message and a function of the language", () => {
    const nested = apiMessage("cms.status", {
      status: apiMessage("error.404"),
    });
    assert.equal(
      sayApiText(nested, "es"),
      "El CMS respondió con un error (No encontrado)",
    );
    assert.equal(
      sayApiText(nested, "en"),
      "The CMS responded with an error (Not found)",
    );
    const byLang = apiMessage("cms.status", {
      status: (lang) => lang === "en" ? "busy" : "ocupado",
    });
    assert.equal(
      sayApiText(byLang, "en"),
      "The CMS responded with an error (busy)",
    );
    assert.equal(
      sayApiText(byLang, "es"),
      "El CMS respondió con un error (ocupado)",
    );
  });
});
