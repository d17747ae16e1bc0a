/**
 * The baseline of the 10,000-candidate bench (ws-hall.mjs; issue 40 §4): a bare `ws`
 * echo server as its own process — every text frame is sent straight back, nothing else
 * (no validation, no buffer, no log) — with the hall's WebSocket options (no
 * permessage-deflate, no client tracking). Run as a script it listens on 127.0.0.1 at the
 * port given as argv[2] and tells its parent `{listening: port}` over IPC.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';

/**
 * Listens on `127.0.0.1:port` and echoes every frame of every WebSocket.
 * @param {number} port
 * @param {() => void} [beforeReply] runs before each reply (echo-gc.mjs adds its garbage there)
 * @param {(port: number) => void} [listening] called once it listens
 * @returns {import('node:http').Server}
 */
export function listenEcho(port, beforeReply = () => {}, listening = () => {}) {
  const server = createServer((_req, res) => res.writeHead(426).end());
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => ws.terminate());
      ws.on('message', (data, isBinary) => {
        beforeReply();
        ws.send(data, { binary: isBinary });
      });
    });
  });
  return server.listen(port, '127.0.0.1', () => listening(server.address().port));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) listenEcho(Number(process.argv[2] ?? 0), undefined, (port) => process.send?.({ listening: port }));
