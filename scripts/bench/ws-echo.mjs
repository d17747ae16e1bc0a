/**
 * The baseline of the 10,000-candidate bench (ws-hall.mjs; issue 40 §4): a bare `ws`
 * echo server as its own process — every text frame is sent straight back, nothing else
 * (no validation, no buffer, no log) — with the hall's WebSocket options (no
 * permessage-deflate, no client tracking). Listens on 127.0.0.1 at the port given as
 * argv[2] and tells its parent `{listening: port}` over IPC.
 */
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const server = createServer((_req, res) => res.writeHead(426).end());
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false });
server.on('upgrade', (req, socket, head) => {
  socket.on('error', () => socket.destroy());
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  });
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => process.send?.({ listening: server.address().port }));
