/**
 * E-mail drafts (backend `apps/backend/src/app/api/latest/internal/email-drafts/` at 2f719903):
 * listed newest change first; a new draft without a source gets the service's default one; every
 * change sets the theme mode from `theme_id` (absent: the project's theme), as the service's PATCH
 * does; an unknown id is the 404 text "No draft found with given id" when read or deleted, and the
 * service's 500 when changed (its database update finds no row).
 *
 * @module
 */
import { Effect } from "effect"
import { createEndpoint, deleteEndpoint, draftNotFoundText, getEndpoint, listEndpoint, updateEndpoint } from "../../emails/internal/emailDrafts.js"
import type { EmailDraft } from "../../emails/internal/emailDrafts.js"
import { randomUuid } from "../Random.js"
import { projectOf } from "../RequestContext.js"
import { internalErrorText, TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { EmailDraftRecord, ProjectRecord } from "../State.js"

/** The source of a new draft (backend `internal/email-drafts/route.tsx` `defaultDraftSource`). */
export const defaultDraftSource = `import { Container } from "@react-email/components";
import { Subject, NotificationCategory, Props } from "@stackframe/emails";

export function EmailTemplate({ user, project }: Props) {
  return (
    <Container>
      <Subject value={\`Hello \${user.displayName}!\`} />
      <NotificationCategory value="Marketing" />
      <div className="font-bold">Hi {user.displayName}!</div>
      <br />
    </Container>
  );
}`

const view = (draft: EmailDraftRecord): EmailDraft => ({
  id: draft.id,
  displayName: draft.displayName,
  tsxSource: draft.tsxSource,
  ...(draft.themeId === "project" ? {} : { themeId: draft.themeId }),
  sentAt: draft.sentAtMillis === null ? null : new Date(draft.sentAtMillis)
})

const findDraft = (project: ProjectRecord, id: string) => {
  const draft = project.emailDrafts.get(id)
  return draft === undefined ? Effect.fail(new TextFailure({ status: 404, text: draftNotFoundText })) : Effect.succeed(draft)
}

/** The draft routes. */
export const routes = [
  route(
    listEndpoint,
    (_input, context) =>
      Effect.sync(() => ({ drafts: [...projectOf(context).emailDrafts.values()].sort((a, b) => b.updatedAtMillis - a.updatedAtMillis).map(view) }))
  ),
  route(createEndpoint, ({ payload }, context) =>
    Effect.sync(() => {
      const draft: EmailDraftRecord = {
        id: randomUuid(),
        displayName: payload.displayName,
        tsxSource: payload.tsxSource ?? defaultDraftSource,
        themeId: payload.themeId ?? "project",
        updatedAtMillis: context.nowMillis,
        sentAtMillis: null
      }
      projectOf(context).emailDrafts.set(draft.id, draft)
      return { id: draft.id }
    })),
  route(getEndpoint, ({ params }, context) => Effect.map(findDraft(projectOf(context), params.id), view)),
  route(updateEndpoint, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const draft = projectOf(context).emailDrafts.get(params.id)
      if (draft === undefined) return yield* Effect.fail(new TextFailure({ status: 500, text: internalErrorText(context.requestId) }))
      if (payload.displayName !== undefined) draft.displayName = payload.displayName
      draft.themeId = payload.themeId ?? "project"
      if (payload.tsxSource !== undefined) draft.tsxSource = payload.tsxSource
      draft.updatedAtMillis = context.nowMillis
      return { ok: "ok" as const }
    })),
  route(deleteEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* findDraft(project, params.id)
      project.emailDrafts.delete(params.id)
      return { ok: "ok" as const }
    }))
]
