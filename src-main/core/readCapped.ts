import type { ApiError } from './errors';

/**
 * Reads a stream to its end, or throws `tooLarge()` as soon as it passes `cap` bytes, the rest left unread (cancelled,
 * or released for someone else to drain). The one capped read of request bodies: JSON and uploads.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
  tooLarge: () => ApiError,
  cancelOnOverflow: boolean,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      if (cancelOnOverflow) await reader.cancel().catch(() => undefined);
      else reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
