/**
 * Closing a connection after an answer sent before its request body was read (a 413 by
 * Content-Length or by a streamed upload's cap, a 503 while an upload arrives; issue 22
 * §1). Node closes such a connection right after the answer when the client said
 * `Connection: close`; a socket closed with unread data sends a reset, and a client still
 * busy sending its body may lose the answer it has not read yet (seen with a 39 MB body:
 * EPIPE, then no answer). Here the answer carries `Connection: close`; after it the server
 * stops reading the socket, sends its FIN and keeps the socket for `LINGER_MS` before
 * closing it, so the client reads the answer first. The rest of a large body is neither
 * waited for nor read (reading and dropping it cost the server CPU and garbage).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection stays open after an early answer, ms. */
export const LINGER_MS = 250;

const lingering = new WeakSet<Socket>();

/**
 * Stops reading `socket` for good: its libuv handle stops reading and cannot be started
 * again (Node's own resume of an unread request, `req._dump()`, would otherwise restart
 * it). What is still in flight stays in the kernel. Used after an early answer and when
 * the connection is handed to the job process (src/uploads/streamed-upload.ts). Does
 * nothing on a socket without a handle (closed, or not a TCP/pipe socket).
 */
export function stopReadingForGood(socket: Socket): void {
  const handle = (socket as unknown as { _handle?: { readStop?: () => number; readStart?: () => number } | null })._handle;
  if (!handle?.readStop) return;
  handle.readStop();
  if (handle.readStart && !stoppedReads.has(handle)) stoppedReads.set(handle, handle.readStart);
  handle.readStart = () => 0;
}

const stoppedReads = new WeakMap<object, () => number>();

/**
 * Starts reading `socket` again after `stopReadingForGood`, once nobody else reads its
 * connection (the job process has read the whole body of an upload handed over to it):
 * the server then sees the client's FIN or reset while the upload's job runs, and can
 * cancel it (src/uploads/streamed-upload.ts). Does nothing on a socket never stopped so,
 * or closed.
 */
export function readAgain(socket: Socket): void {
  const handle = (socket as unknown as { _handle?: { readStart?: () => number } | null })._handle;
  const start = handle && stoppedReads.get(handle);
  if (!handle || !start) return;
  stoppedReads.delete(handle);
  handle.readStart = start;
  handle.readStart();
}

/** Marks the answer to `incoming` as the connection's last, closed after LINGER_MS (not at once). */
export function closeAfterEarlyAnswer(incoming: IncomingMessage | undefined, outgoing: ServerResponse | undefined): void {
  if (!incoming || !outgoing || outgoing.headersSent) return;
  outgoing.setHeader('connection', 'close');
  const socket = incoming.socket as Socket & { destroySoon?: () => void };
  if (!socket || lingering.has(socket)) return;
  lingering.add(socket);
  // Node calls destroySoon() once the last answer is written
  socket.destroySoon = function lingerThenDestroy(this: Socket) {
    // read no more of the body, for good: Node dumps an unread request (req._dump(), just
    // before this call) by resuming it, which would start reading the socket again on the
    // next tick and read and drop the whole rest of the body (39 MB of a refused upload,
    // garbage that cost the hall's saves full collections; issue 22 §1)
    stopReadingForGood(this);
    this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}
