import { useMemo } from 'preact/hooks'
// The encoder only (no canvas or PNG renderers): the matrix is drawn as one SVG path.
import { create } from 'qrcode/lib/core/qrcode'

/** A QR code of `text` as SVG, with the text as its accessible name's companion (the link is shown beside it). */
export function QrCode(props: { text: string; label: string }) {
  const drawing = useMemo(() => {
    try {
      const { modules } = create(props.text, { errorCorrectionLevel: 'L' })
      const size = modules.size
      let path = ''
      for (let row = 0; row < size; row++) {
        for (let column = 0; column < size; column++) {
          if (modules.data[row * size + column]) path += `M${column + 4} ${row + 4}h1v1h-1z`
        }
      }
      return { size: size + 8, path }
    } catch {
      return undefined
    }
  }, [props.text])
  if (!drawing) return <p class="hint">This link is too long for a QR code; share the link instead.</p>
  return (
    <svg
      class="qr"
      viewBox={`0 0 ${drawing.size} ${drawing.size}`}
      role="img"
      aria-label={props.label}
      shape-rendering="crispEdges"
    >
      <rect width={drawing.size} height={drawing.size} fill="#fff" />
      <path d={drawing.path} fill="#000" />
    </svg>
  )
}
