import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A passkey authenticator in software, for tests: an ES256 key pair from node:crypto, answering
 * WebAuthn registration ('none' attestation) and authentication the way a browser's authenticator
 * does, byte for byte (CTAP2 authenticator data, CBOR, DER signatures). The server checks it with
 * @simplewebauthn/server like any other passkey.
 */

// --- The little CBOR the answers need (RFC 8949): unsigned and negative integers, bytes, text, maps.
function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
}
type Cbor = number | string | Buffer | Map<number | string, Cbor>;
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export interface SoftwareAuthenticator {
  credentialId: string;
  /** The answer to registration options (what startRegistration returns). */
  register(options: { challenge: string; rp: { id?: string } }, origin: string): Record<string, unknown>;
  /** The answer to authentication options (what startAuthentication returns). */
  authenticate(options: { challenge: string; rpId?: string }, origin: string): Record<string, unknown>;
}

export function softwareAuthenticator(): SoftwareAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(32);
  let counter = 0;

  const coseKey = (key: KeyObject) => {
    const jwk = key.export({ format: 'jwk' });
    return cbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  };
  const authData = (rpId: string, flags: number, attested?: Buffer) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(++counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  };
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    credentialId: b64url(credentialId),
    register(options, origin) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey(publicKey)]);
      // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
      const data = authData(rpId, 0x45, attested);
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', data],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    authenticate(options, origin) {
      const rpId = options.rpId ?? new URL(origin).hostname;
      const data = authData(rpId, 0x05);
      const client = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
}
