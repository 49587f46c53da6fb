import net from 'node:net';

/**
 * A port nobody listens on right now, on 127.0.0.1: for a server whose address must be known before
 * it starts (mail links need the real address, so PORT=0 will not do).
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
