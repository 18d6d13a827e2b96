import { Transform, type TransformCallback, type TransformOptions } from "node:stream";

/**
 * The page's HTML on its way from React to the response, in the pieces React means to send.
 *
 * React writes its output in views of a few kilobytes and calls `flush()` on its destination when it
 * has written all it can send for now (the shell, then each boundary that completes). React Router's
 * adapter writes each chunk it reads to the response and flushes the compression after each one, so
 * a rendered page went out in 17–30 separately flushed gzip blocks: bg `/` 24.6 KB on the wire
 * against 17.3 KB for the same page sent from the page cache in one piece. This stream holds React's
 * writes until React flushes, so the response is flushed where React flushes and nowhere else.
 *
 * And not even there when React flushes again at once: the compression's flush is zlib's full
 * flush, which forgets everything sent before, so the rest of the page cannot point back at its
 * head (bg `/` 17.6 KB of gzip flushed after the shell, 15.3 KB in one piece). React flushes the
 * shell, then writes the rest of a page whose data is ready within the same turn of the event
 * loop: a flush waits for that turn to end (a timer of 0), and the writes made meanwhile go with it.
 * A page that waits for data still sends its shell at once.
 */
export class ReactFlushedStream extends Transform {
  #pending: Buffer[] = [];
  #scheduled: NodeJS.Timeout | undefined;

  constructor(options?: TransformOptions) {
    super(options);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#pending.push(chunk);
    callback();
  }

  /** React's "send what you have": called by React on a destination that has it. */
  flush(): void {
    this.#scheduled ??= setTimeout(() => {
      this.#scheduled = undefined;
      this.#send();
    }, 0);
  }

  #send(): void {
    if (this.#pending.length === 0) return;
    const piece = this.#pending.length === 1 ? this.#pending[0] : Buffer.concat(this.#pending);
    this.#pending = [];
    this.push(piece);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.#scheduled);
    this.#scheduled = undefined;
    callback(error);
  }

  override _flush(callback: TransformCallback): void {
    clearTimeout(this.#scheduled);
    this.#scheduled = undefined;
    this.#send();
    callback();
  }
}
