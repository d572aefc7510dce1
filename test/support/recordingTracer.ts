/**
 * A tracer for tests that look for secrets in spans: it records every span's name, attributes
 * and events (each event as `name {attributes}`, a failed span's cause as `Cause.pretty`).
 */
import { Cause, Exit, Tracer } from "effect"

/** One span as recorded by {@link recordingTracer}. */
export interface RecordedSpan {
  readonly name: string
  readonly attributes: Map<string, unknown>
  readonly events: Array<string>
}

/** A tracer that appends every span it starts to `spans`. */
export const recordingTracer = (spans: Array<RecordedSpan>): Tracer.Tracer =>
  Tracer.make({
    span: ({ annotations, kind, links, name, parent, sampled, startTime }) => {
      const attributes = new Map<string, unknown>()
      const events: Array<string> = []
      spans.push({ name, attributes, events })
      const span: Tracer.Span = {
        _tag: "Span",
        name,
        spanId: `span-${spans.length}`,
        traceId: "trace",
        parent,
        annotations,
        status: { _tag: "Started", startTime },
        attributes,
        links,
        sampled,
        kind,
        end: (_endTime, exit) => {
          if (Exit.isFailure(exit)) events.push(Cause.pretty(exit.cause))
        },
        attribute: (key, value) => void attributes.set(key, value),
        event: (eventName, _time, eventAttributes) => void events.push(`${eventName} ${JSON.stringify(eventAttributes ?? {})}`),
        addLinks: () => {}
      }
      return span
    }
  })
