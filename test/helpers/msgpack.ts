/**
 * A MessagePack reader for test fixtures (anoncreds-rs' W3C `proofValue` is multibase base64url of MessagePack):
 * maps, arrays, strings, binaries, integers, nil and booleans, which is all those fixtures use.
 */
export type MsgpackValue = null | boolean | number | bigint | string | Uint8Array | MsgpackValue[] | MsgpackMap
export interface MsgpackMap {
  [key: string]: MsgpackValue
}

export function decodeMsgpack(bytes: Uint8Array): MsgpackValue {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset = 0
  const take = (length: number) => {
    if (offset + length > bytes.length) throw new Error('msgpack: truncated')
    const start = offset
    offset += length
    return start
  }
  const text = (length: number) => Buffer.from(bytes.subarray(take(length), offset)).toString('utf8')
  const binary = (length: number) => bytes.slice(take(length), offset)
  const array = (length: number) => Array.from({ length }, () => read())
  const map = (length: number) => {
    const result: MsgpackMap = {}
    for (let i = 0; i < length; i++) {
      const key = read()
      if (typeof key !== 'string' && typeof key !== 'number') throw new Error('msgpack: unsupported map key')
      result[String(key)] = read()
    }
    return result
  }
  const read = (): MsgpackValue => {
    const type = bytes[take(1)]
    if (type <= 0x7f) return type
    if (type >= 0xe0) return type - 0x100
    if ((type & 0xf0) === 0x80) return map(type & 0x0f)
    if ((type & 0xf0) === 0x90) return array(type & 0x0f)
    if ((type & 0xe0) === 0xa0) return text(type & 0x1f)
    switch (type) {
      case 0xc0:
        return null
      case 0xc2:
        return false
      case 0xc3:
        return true
      case 0xc4:
        return binary(view.getUint8(take(1)))
      case 0xc5:
        return binary(view.getUint16(take(2)))
      case 0xc6:
        return binary(view.getUint32(take(4)))
      case 0xcc:
        return view.getUint8(take(1))
      case 0xcd:
        return view.getUint16(take(2))
      case 0xce:
        return view.getUint32(take(4))
      case 0xcf:
        return view.getBigUint64(take(8))
      case 0xd0:
        return view.getInt8(take(1))
      case 0xd1:
        return view.getInt16(take(2))
      case 0xd2:
        return view.getInt32(take(4))
      case 0xd3:
        return view.getBigInt64(take(8))
      case 0xd9:
        return text(view.getUint8(take(1)))
      case 0xda:
        return text(view.getUint16(take(2)))
      case 0xdb:
        return text(view.getUint32(take(4)))
      case 0xdc:
        return array(view.getUint16(take(2)))
      case 0xdd:
        return array(view.getUint32(take(4)))
      case 0xde:
        return map(view.getUint16(take(2)))
      case 0xdf:
        return map(view.getUint32(take(4)))
      default:
        throw new Error(`msgpack: unsupported type 0x${type.toString(16)}`)
    }
  }
  const value = read()
  if (offset !== bytes.length) throw new Error('msgpack: trailing bytes')
  return value
}
