import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import { recordStaffAction, type StaffAction } from "@/lib/db/mod.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { getStaff } from "@/lib/staff/mod.ts";

/** A CSV file's type, saying its first row names the columns. */
export const CSV_TYPE = "text/csv; charset=utf-8; header=present";

/**
 * The UTF-8 byte-order mark: Excel on Windows opens a CSV without one as
 * the local code page ("DestilerÃ­a"). Staff downloads only: the files at
 * /datos stay plain UTF-8, the interface harvesters read.
 */
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** A public CSV answer (the open data), shown in place, with `headers`. */
export function csvResponse(
  body: BodyInit,
  name: string,
  headers: Record<string, string>,
): Response {
  return new Response(body, {
    headers: {
      ...headers,
      "Content-Type": CSV_TYPE,
      "Content-Disposition": `inline; filename="${name}"`,
    },
  });
}

/** What {@linkcode sendStaffDownload} sends. */
export interface StaffDownload {
  /** The name the file is saved as. */
  file: string;
  /** Its `Content-Type`: a CSV ({@linkcode CSV_TYPE}) gets a byte-order mark. */
  type: string;
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
  /** What the audit log records: `export_downloaded` unless said. */
  action?: StaffAction;
  /** What the record names: the file's name unless said. */
  target?: string;
}

/**
 * Every staff download: records it in the audit log (who, what, when),
 * then answers the file as an attachment that no cache keeps (one
 * person's copy), a CSV after a byte-order mark for Excel. The record is
 * written before a byte is sent, so no file leaves unaudited.
 */
export async function sendStaffDownload(
  c: Context<AppEnv>,
  deps: Pick<AppDeps, "kv" | "now">,
  { file, type, body, action = "export_downloaded", target = file }:
    StaffDownload,
): Promise<Response> {
  await recordStaffAction(deps.kv, {
    staff: getStaff(c),
    action,
    target,
    at: deps.now(),
  });
  return new Response(type === CSV_TYPE ? withBom(body) : body, {
    headers: {
      "Content-Type": type,
      "Content-Disposition": `attachment; filename="${file}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/** `body` after a byte-order mark. */
function withBom(body: StaffDownload["body"]): BodyInit {
  if (!(body instanceof ReadableStream)) return new Blob([BOM, body]);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start: (controller) => controller.enqueue(BOM),
    }),
  );
}
