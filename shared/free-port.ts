/** Free TCP ports for the processes plat starts (the worker's metrics endpoint, the start script, the test harness). */
import * as fs from 'node:fs';
import * as net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that is free right now, for a process that will bind it soon after.
 * Taken below the kernel's ephemeral range where there is room: a released port of that range can
 * go to any outgoing connection before its new owner binds it, and on a busy machine one did (a
 * Temporal dev server then failed with "address already in use"). Elsewhere the OS picks.
 */
export async function freePort(): Promise<number> {
  const range = belowEphemeralRange();
  if (range) {
    for (let tries = 0; tries < 50; tries++) {
      const port = range.first + (cursor++ % (range.last - range.first + 1));
      if (await canListen(port)) return port;
    }
  }
  return osPickedPort();
}

/** Ports from 15000 to just below the ephemeral range, when that leaves at least 1000 of them. */
function belowEphemeralRange(): { first: number; last: number } | undefined {
  let ephemeralFirst: number;
  try {
    ephemeralFirst = Number(
      fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
    );
  } catch {
    return undefined; // not Linux
  }
  const first = 15000;
  return ephemeralFirst - first >= 1000 ? { first, last: ephemeralFirst - 1 } : undefined;
}

/** Each process walks the range from its own random start, so processes rarely offer the same port. */
let cursor = Math.floor(Math.random() * 1_000_000);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function osPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** True when something accepts TCP connections on host:port. */
export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}
