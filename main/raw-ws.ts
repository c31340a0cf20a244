// Test helper: a WebSocket client over a raw TCP socket, to send frames no well-behaved client library would (bad masks, RSV bits, lengths, UTF-8).
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface RawSocket {
  socket: Socket;
  /** Writes bytes as they are (a whole hand-made frame). */
  write(bytes: Buffer): void;
  /** Resolves when the server closed or reset the connection. */
  closed: Promise<void>;
}

/** Performs the HTTP upgrade on /ws with the token, then hands over the socket. */
export function rawWebSocket(port: number, token: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => {
      socket.once('close', () => done());
    });
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
      resolve({ socket, write: (b) => void socket.write(b), closed });
    };
    socket.on('data', onData);
    socket.once('connect', () => {
      socket.write(
        `GET /ws?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
  });
}

/** One client frame: `first` is FIN/RSV/opcode, the payload masked unless `masked` is false; `claimedLength` lies about the size. */
export function frame(payload: Buffer, opts: { first?: number; masked?: boolean; claimedLength?: number } = {}): Buffer {
  const masked = opts.masked ?? true;
  const len = opts.claimedLength ?? payload.length;
  let header: Buffer;
  if (len < 126) header = Buffer.from([opts.first ?? 0x81, (masked ? 0x80 : 0) | len]);
  else if (len < 65536) {
    header = Buffer.alloc(4);
    header.writeUInt16BE(len, 2);
    header[1] = (masked ? 0x80 : 0) | 126;
  } else {
    header = Buffer.alloc(10);
    header.writeBigUInt64BE(BigInt(len), 2);
    header[1] = (masked ? 0x80 : 0) | 127;
  }
  header[0] = opts.first ?? 0x81;
  if (!masked) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
  return Buffer.concat([header, mask, body]);
}

/** The four frames that each ended `assay serve` with an unhandled 'error' event (issue 12, item 1). */
export const HOSTILE_FRAMES: Record<string, () => Buffer> = {
  'a frame over the size limit': () => frame(Buffer.alloc(16), { claimedLength: 2 ** 40 }),
  'a text frame with invalid UTF-8': () => frame(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
  'a frame with RSV1 set (no extension negotiated)': () => frame(Buffer.from('{}'), { first: 0xc1 }),
  'an unmasked client frame': () => frame(Buffer.from('{}'), { masked: false }),
};
