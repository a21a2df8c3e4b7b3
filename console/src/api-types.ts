// Generated from openapi.json by `npm run build:console` (openapi-typescript); do not edit.
export interface paths {
    "/api/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List and search actions
         * @description Filters are `<parameter>=<operator><value>`: `=` equal (also the default; `==` is an explicit equal, so `title==!urgent` matches the title `!urgent`), `!` not equal, `*` like (case-insensitive substring; strings only), `<` smaller, `>` greater, `~` in (comma-separated, at most 100 values; `\,` is a literal comma and `\\` a backslash). Filters combine with AND, repeated ones too. At most 20 filters.
         */
        get: operations["listActions"];
        put?: never;
        /**
         * Create an action
         * @description The caller becomes owner and initiator; the id is a random UUID. actionProducer.reference is kept as data: only the producer's own ActionRequested event claims a reference. Strings: title 1-200 chars, description up to 10000; text must be well-formed Unicode, and one-line fields (title, names, references, location, tags, attachment name and type) refuse control and bidirectional formatting characters.
         */
        post: operations["createAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/trends": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Trends over time
         * @description Per UTC day, week (Monday to Sunday) or calendar month from `from` to `to` (both inclusive, at most 400 buckets, `to` at most today): actions created, changes into a closed status (`closed`), out of one (`reopened`), closes at or before dueAt (`closedOnTime`), the mean days from creation to close over the bucket's closes, and open and overdue actions at the bucket's end (from a snapshot recorded at the end of each UTC day; `null` before the service recorded one; for the bucket holding today, the list's current counts). Over the caller's scopes (section 14). Filters are `=` only: any location fields (a field without the ones before it sums every location prefix it is found in, at most 50), and at most one of actionProducer.name, priority, assignee, owner (`me` allowed) with a location no deeper than the department. Any other filter or operator is a 400 naming it. May lag writes by up to 60 seconds; never reads actions.
         */
        get: operations["getTrends"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Count actions by group
         * @description The matching actions grouped by one or two fields (`by` once or twice), with any list filter. Each group's `count` equals the `totalCount` of `GET /api/actions` with the same filters plus that group's value as an `=` filter (for `overdueAge`, the matching `overdue` and `dueAt` range), with the same relation; its `overdue` equals that list's count with `overdue=true` added. Counted over what the caller sees. Groups come by count descending, then key ascending; groups of 0 are left out; `otherCount` is the sum of the groups past `limit`. `overdueAge` groups by whole UTC days since dueAt: `none` (not overdue), `1-7` (less than a day past due counts here), `8-30`, `31-90`, `91+`. Filters are `<parameter>=<operator><value>`: `=` equal (also the default; `==` is an explicit equal, so `title==!urgent` matches the title `!urgent`), `!` not equal, `*` like (case-insensitive substring; strings only), `<` smaller, `>` greater, `~` in (comma-separated, at most 100 values; `\,` is a literal comma and `\\` a backslash). Filters combine with AND, repeated ones too. At most 20 filters.
         */
        get: operations["countActions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an action */
        get: operations["getAction"];
        put?: never;
        post?: never;
        /**
         * Delete an action
         * @description The owner only, conditional on If-Match.
         */
        delete: operations["deleteAction"];
        options?: never;
        head?: never;
        /**
         * Edit an action
         * @description A JSON merge patch (RFC 7396), conditional on If-Match. Allowed to the owner or the assignee, or anyone when allowAnonymousEdits is true. A patch naming assignee needs the owner or the current assignee, one naming allowAnonymousEdits the owner; anyone else gets 403 for the whole patch. actionProducer.name and .reference never change (400). null resets description, tags and attachments; location merges field by field; assignee is replaced whole (null unassigns). When several errors apply: 400, then 404, 403, 412.
         */
        patch: operations["updateAction"];
        trace?: never;
    };
    "/api/actions/{id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List comments
         * @description The whole comment thread, oldest first, in pages.
         */
        get: operations["listComments"];
        put?: never;
        /**
         * Add a comment
         * @description Any signed-in caller. Text: non-blank, at most 2000 characters, well-formed Unicode; line breaks and tabs allowed. Moves the action's version, updatedAt and ETag.
         */
        post: operations["addComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/{id}/comments/{commentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a comment
         * @description Its author or the action's owner.
         */
        delete: operations["deleteComment"];
        options?: never;
        head?: never;
        /**
         * Edit a comment
         * @description Its author only.
         */
        patch: operations["editComment"];
        trace?: never;
    };
    "/api/actions/{id}/endorsements/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Endorse an action
         * @description Any signed-in caller; endorsing again changes nothing. At most 100 endorsements (409 past that). A caller may change their endorsement of one action at most 10 times an hour (past that a 429 problem+json with Retry-After).
         */
        put: operations["endorseAction"];
        post?: never;
        /**
         * Withdraw an endorsement
         * @description The caller's own. A caller may change their endorsement of one action at most 10 times an hour (past that a 429 problem+json with Retry-After).
         */
        delete: operations["withdrawEndorsement"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an action's history
         * @description Every change of the action, oldest first, in pages. Any signed-in caller, also after the action is deleted; 404 only for an id that never existed.
         */
        get: operations["getHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description The caller's own, never with a secret.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook subscription
         * @description Any signed-in caller, at most 25 subscriptions (409 past that). url: absolute https URL, at most 2,000 characters, no user or password, not a private, loopback or link-local host. events: default ["*"]. The secret (whsec_ + base64 of 32 bytes) is shown only here and on rotation. Each published event whose type the subscription names is POSTed to its url per Standard Webhooks 1.0: body {type, timestamp, data}; headers webhook-id (the event id, the same on every retry and redelivery), webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256>; two, space separated, for 24 hours after a rotation). Success is a 2xx within 10 seconds; redirects are not followed. Retries after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; 410 Gone disables the subscription, and so do 5 days of failures. Only public addresses are reached (unless the deployment sets WEBHOOKS_ALLOW_PRIVATE=true).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description Its owner only; 404 to anyone else.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Its owner only; nothing more is sent to it.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Edit a webhook subscription
         * @description A JSON merge patch; its owner only. url, events, description (null clears it) and enabled. After enabled: false nothing more is sent; enabling again clears disabledReason.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/webhooks/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description A new secret; for 24 hours every delivery carries the new and the old signature.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test ping
         * @description One WebhookPing delivery to this endpoint alone. Redeliveries and pings of one subscription: at most 30 in any 10 minutes (past that a 429 problem+json with Retry-After).
         */
        post: operations["pingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries
         * @description The delivery log of the last 30 days, newest first, in pages.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver
         * @description Attempt the delivery again now, with the same webhook-id. Redeliveries and pings of one subscription: at most 30 in any 10 minutes (past that a 429 problem+json with Retry-After).
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/{id}/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an upload
         * @description Whoever may comment on the action. Answers an S3 presigned POST valid 15 minutes whose policy pins the object key, the content type and the exact size, so storage refuses any other file (403 or 400 from storage, as S3 words it). POST the form to `url` with every one of `fields` and the file last as `file`; then attach it with POST .../attachments. A type or size outside the settings is a 400; an action with 50 attachments a 409.
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/{id}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach an uploaded file
         * @description The uploader, who may still comment. Checks the stored object (there, its size and type the ones declared, and its first bytes the signature of that type for PNG, JPEG, WebP, HEIC and PDF: a 409 naming contentType otherwise, the file deleted) and adds it to the action's attachments with a history entry `attachment-added` (event ActionAttachmentAdded) in one transaction; moves the action's version. An uploadId already attached answers 200 with it. A file never attached is deleted within a day.
         */
        post: operations["attachUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/{id}/attachments/{attachmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an uploaded file
         * @description Whoever sees the action. A 302 to a presigned GET valid 5 minutes, with the stored content type and a Content-Disposition naming the file (inline for images, attachment otherwise). A 409 while the malware scan is pending, for a file it found a threat in (never served), and for an unscanned file where the deployment serves only scanned ones.
         */
        get: operations["getAttachment"];
        put?: never;
        post?: never;
        /**
         * Remove an uploaded file
         * @description The uploader, the action's owner or a manager. Removes it with a history entry `attachment-removed` (event ActionAttachmentRemoved), then deletes the stored object. A 409 naming attachments for the last uploaded file of an action whose status needs evidence (EVIDENCE_REQUIRED_STATUSES).
         */
        delete: operations["deleteAttachment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/imports/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an import upload
         * @description Any signed-in caller. An S3 presigned POST valid 15 minutes whose policy pins the key, the content type and the exact size (at most 50 MB), so storage refuses any other file. POST the form to `url`, then start the import with POST /api/imports. The file is kept 7 days.
         */
        post: operations["createImportUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import an uploaded file
         * @description Queues a dry run (checks every row, creates nothing) or a real run (creates every valid row as POST /api/actions would, owner and initiator the caller, each row once: a real run of the same upload again is the same import and creates nothing). Columns are the export's, by name, any case and order; title, actionProducer.name, dueAt, priority and status are required. In ACCESS=scoped each row needs the caller to manage its location. Follow Location for the report.
         */
        post: operations["createImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an import and its report
         * @description Only its importer (404 for anyone else). Records are kept 7 days.
         */
        get: operations["getImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List one's exports
         * @description The caller's own exports of the last 7 days, newest first (at most 100).
         */
        get: operations["listExports"];
        put?: never;
        /**
         * Export a list
         * @description Queues an export of every action the list `query` shows the caller (section 14), in its order, each once. Read its progress and, when done, its file with GET /api/exports/{id} (Location). Files and records are deleted after 7 days.
         */
        post: operations["createExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an export
         * @description Only the person who asked for it; anyone else gets a 404. When done, `url` is a fresh presigned GET of its file.
         */
        get: operations["getExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the change feed
         * @description Every history entry of every action, oldest first; one action's entries in version order. Follow `nextCursor` (always present, also on an empty page: poll again with it later) and you see every entry exactly once, deletes included, also while writes run. An entry appears up to 10 seconds after its change is stored. A page costs about `limit` entries whatever the table holds. Any signed-in caller.
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get my notification preferences
         * @description What email the caller gets, and when. Email goes only to the verified address of their own token.
         */
        get: operations["getNotificationPreferences"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change my notification preferences */
        patch: operations["updateNotificationPreferences"];
        trace?: never;
    };
    "/api/notifications/unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unsubscribe from every email, one click
         * @description The `List-Unsubscribe` URL of every email (RFC 8058: a mail program POSTs `List-Unsubscribe=One-Click` to it). Turns the person's email off; no token needed, the link's own secret decides. A wrong link is a 404.
         */
        post: operations["unsubscribeNotifications"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List grants
         * @description The grants inside the scopes the caller is admin of (none for anyone else), oldest id first, with exact filters. A revoked grant stops working within 60 seconds.
         */
        get: operations["listGrants"];
        put?: never;
        /**
         * Grant a role on a scope
         * @description Roles, each including the ones before it: viewer (sees the actions in the scope), member (also comments, endorses, and edits under the owner-or-assignee rule), manager (also edits every field, deletes, and moves actions between scopes they manage), admin (also grants and revokes roles on the scope and anything inside it). Only an admin of a scope that contains the grant's may grant it (the deployment's ADMIN_GROUP is admin of {}). Granting what is already granted changes nothing and answers the grant there is, with 200.
         */
        post: operations["createGrant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/grants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a grant
         * @description An admin of a scope containing the grant's; a grant outside the caller's admin scopes is a 404, as one that never existed. It stops working within 60 seconds.
         */
        delete: operations["deleteGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who am I, and what may I see
         * @description The caller as the token names them, their Cognito groups, and their effective grants, direct and through groups (the deployment's admin group shows as a grant of admin on {} without an id), so a client knows what to offer. The API decides.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the OpenAPI document */
        get: operations["openApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open the documentation page */
        get: operations["docs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a file of the documentation page */
        get: operations["docsFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    ActionDueSoon: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Received when an action is due soon
         * @description ActionDueSoon, as a webhook delivery your endpoint receives (Standard Webhooks 1.0: webhook-id, webhook-timestamp, webhook-signature).
         */
        post: operations["onActionDueSoon"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    ActionOverdue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Received when an action is overdue
         * @description ActionOverdue, as a webhook delivery your endpoint receives (Standard Webhooks 1.0: webhook-id, webhook-timestamp, webhook-signature).
         */
        post: operations["onActionOverdue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    ActionEscalated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Received when an overdue action is escalated
         * @description ActionEscalated, as a webhook delivery your endpoint receives (Standard Webhooks 1.0: webhook-id, webhook-timestamp, webhook-signature).
         */
        post: operations["onActionEscalated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description The detail of ActionDueSoon (within DUE_SOON_HOURS of dueAt), ActionOverdue (past dueAt while open) and ActionEscalated (overdue for ESCALATE_AFTER_HOURS): each once per dueAt value of an open action, only the latest that applies when an action enters a window by a create or a change of dueAt. */
        ReminderEventDetail: {
            eventId: string;
            id: string;
            actor: components["schemas"]["Person"];
            time: string;
            version: number;
            dueAt: string;
            owner: components["schemas"]["Person"];
            assignee: components["schemas"]["Person"];
            status: string;
            title: string;
        };
        /**
         * @example {
         *       "id": "system",
         *       "name": "Action tracking service",
         *       "email": null
         *     }
         */
        Person: {
            id: string;
            name: string;
            email: string | null;
        };
        /** @description RFC 9457 problem details */
        Problem: {
            /** @example https://action-tracking.dev/problems/validation-error */
            type: string;
            title: string;
            status: number;
            detail: string;
            /** @description At most 20; detail says how many more there were. */
            errors?: {
                parameter?: string;
                field?: string;
                message: string;
            }[];
        };
        Action: {
            /** @example 3f0c7a52-8d7e-4f59-9a1c-0f4b7c1d2e3a */
            id: string;
            title: string;
            description: string;
            actionProducer: {
                name: string;
                url?: string;
                reference?: string;
            };
            location: {
                businessUnit: string;
                site: string;
                department: string;
                workGroup: string;
                productiveUnit: string;
                team: string;
                crew: string;
            };
            allowAnonymousEdits: boolean;
            /**
             * @description UTC, milliseconds, Z
             * @example 2026-12-01T10:00:00.000Z
             */
            dueAt: string;
            /**
             * @description A non-negative integer, as a string
             * @example 2
             */
            priority: string;
            /**
             * @description A non-negative integer, as a string
             * @example 1
             */
            status: string;
            owner: components["schemas"]["Person"];
            initiator: components["schemas"]["Person"];
            assignee: components["schemas"]["Person"] & unknown;
            /** @description In endorsement order, at most 100 */
            endorsedBy: components["schemas"]["Endorsement"][];
            /** @description Links (with `url`, sent on create or PATCH) and uploaded files (with `id`, added by POST .../attachments; a PATCH of `attachments` replaces the links and keeps them) */
            attachments: ({
                url: string;
                name?: string;
                contentType?: string;
                size?: number;
            } | components["schemas"]["UploadedAttachment"])[];
            tags: string[];
            /** @description The latest 5 comments, oldest of them first */
            comments: components["schemas"]["Comment"][];
            /** @description How many comments the action has in all */
            commentCount: number;
            /** @description Open (status not in CLOSED_STATUSES) and past dueAt, as of the last due-date sweep; false at once when a change closes the action or moves dueAt. Read-only. */
            overdue: boolean;
            /** @example 2026-11-21T09:30:00.000Z */
            createdAt: string;
            /** @example 2026-11-21T09:30:00.000Z */
            updatedAt: string;
            /**
             * @description When the status last entered a closed status (CLOSED_STATUSES), null while open; an action created closed has its createdAt. Reopening clears it, closing again sets it. Read-only.
             * @example null
             */
            closedAt: string | null;
            /**
             * @description Moves with every change; the ETag is this number in quotes, so `If-Match: "3"` edits only this version.
             * @example 3
             */
            version: number;
        };
        Endorsement: {
            id: string;
            name: string;
            email: string | null;
            endorsedAt: string;
        };
        UploadedAttachment: {
            id: string;
            name: string;
            contentType: string;
            size: number;
            uploadedBy: components["schemas"]["Person"];
            uploadedAt: string;
            /**
             * @description The malware scan: `not-scanned` where no scanner runs; `pending` until the scanner's verdict is recorded (history entry `attachment-scanned`), then `clean` or `threat`. Downloads of a `pending` file check the scanner's current result themselves.
             * @enum {string}
             */
            scan: "not-scanned" | "pending" | "clean" | "threat";
        };
        Comment: {
            /** @description A time-ordered UUID (v7) */
            id: string;
            author: components["schemas"]["Person"];
            text: string;
            createdAt: string;
            updatedAt: string;
        };
        HistoryEntry: {
            /** @description Versions run 1, 2, 3... with no gaps */
            version: number;
            /**
             * @description Each entry is also published as an event: ActionCreated (`created`), ActionUpdated (`updated`), ActionDeleted (`deleted`), ActionCommented (`commented`), ActionCommentEdited (`comment-edited`), ActionCommentDeleted (`comment-deleted`), ActionEndorsed (`endorsed`), ActionEndorsementWithdrawn (`endorsement-withdrawn`), ActionDueSoon (`due-soon`), ActionOverdue (`overdue`), ActionEscalated (`escalated`), ActionAttachmentAdded (`attachment-added`), ActionAttachmentRemoved (`attachment-removed`), ActionAttachmentScanned (`attachment-scanned`). The due-date reminders (`due-soon`, `overdue`, `escalated`) are written by the service (actor `system`), once per dueAt value; so is `attachment-scanned`, when the malware scan of an uploaded file ends in a verdict.
             * @enum {string}
             */
            type: "created" | "updated" | "deleted" | "commented" | "comment-edited" | "comment-deleted" | "endorsed" | "endorsement-withdrawn" | "due-soon" | "overdue" | "escalated" | "attachment-added" | "attachment-removed" | "attachment-scanned";
            actor: components["schemas"]["Person"];
            time: string;
            /** @description For `updated`: exactly the fields that changed */
            changes?: {
                [key: string]: {
                    before?: unknown;
                    after?: unknown;
                };
            };
            /** @description For the comment types: which comment, and who wrote it */
            comment?: {
                id: string;
                author?: components["schemas"]["Person"];
                /** @description The comment's current text while it exists; absent once the comment or its action is deleted (earlier texts are not kept) */
                text?: string;
            };
            /** @description For the reminders (`due-soon`, `overdue`, `escalated`): the dueAt they are about */
            dueAt?: string;
            /** @description For `attachment-added`, `attachment-removed` and `attachment-scanned` (written by the service, actor `system`, when the malware scan of the file ends in a verdict): which uploaded file */
            attachment?: {
                id: string;
                name: string;
                contentType: string;
                size: number;
                /**
                 * @description For `attachment-scanned`: the malware scanner's verdict
                 * @enum {string}
                 */
                scan?: "clean" | "threat";
            };
        };
        Webhook: {
            id: string;
            url: string;
            /** @description Event types, or ["*"] for all: ActionCreated, ActionUpdated, ActionDeleted, ActionCommented, ActionCommentEdited, ActionCommentDeleted, ActionEndorsed, ActionEndorsementWithdrawn, ActionDueSoon, ActionOverdue, ActionEscalated, ActionAttachmentAdded, ActionAttachmentRemoved, ActionAttachmentScanned */
            events: string[];
            description: string;
            enabled: boolean;
            /** @description Why the service disabled it (410 Gone, or 5 days of failures) */
            disabledReason?: string;
            createdAt: string;
            owner: components["schemas"]["Person"];
        };
        WebhookDelivery: {
            /** @description Time-ordered (UUIDv7 at the event time) */
            id: string;
            /** @description The webhook-id header of every attempt */
            eventId: string;
            type: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts: {
                at: string;
                durationMs: number;
                responseStatus?: number;
                /** @description Why the attempt failed: connection failed, timed out, TLS failed, address not allowed, or HTTP <status> for an answer outside 2xx */
                error?: string;
            }[];
            nextAttemptAt?: string;
        };
        Upload: {
            /** @description Send it to POST .../attachments once the file is stored */
            uploadId: string;
            /** @description Where to POST the file (multipart/form-data) */
            url: string;
            /** @description Every one goes into the form, as given, before the `file` part (which comes last) */
            fields: {
                [key: string]: string;
            };
            /** @description The policy is valid until then (15 minutes) */
            expiresAt: string;
        };
        ImportUpload: {
            /** @description Send it to POST /api/imports once the file is stored */
            uploadId: string;
            /** @description Where to POST the file (multipart/form-data) */
            url: string;
            /** @description Every one goes into the form, as given, before the `file` part */
            fields: {
                [key: string]: string;
            };
            /** @description The policy is valid until then (15 minutes) */
            expiresAt: string;
        };
        ImportSummary: {
            id: string;
            /** @enum {string} */
            status: "queued" | "running" | "done" | "failed";
            dryRun: boolean;
            /** @description Data rows read (blank rows are skipped) */
            rows: number;
            valid: number;
            invalid: number;
            /** @description Actions created so far (always 0 on a dry run) */
            created: number;
        };
        Import: {
            id: string;
            /** @enum {string} */
            status: "queued" | "running" | "done" | "failed";
            dryRun: boolean;
            /** @description Data rows read (blank rows are skipped) */
            rows: number;
            valid: number;
            invalid: number;
            /** @description Actions created so far (always 0 on a dry run) */
            created: number;
            fileName: string;
            /** @description Columns set by the service, and unknown ones, as the file names them */
            ignoredColumns: string[];
            createdAt: string;
            finishedAt?: string;
            /** @description Why the whole file failed (encoding, a required column, the row limit) */
            error?: string;
            /** @description The first 1,000 problems, in row order */
            errors: components["schemas"]["ImportProblem"][];
            /** @description With more than 1,000 problems: all of them as CSV (a presigned GET, 5 minutes) */
            errorsUrl?: string;
        };
        ImportProblem: {
            /** @description The row, counting the header as row 1 */
            row: number;
            /** @description The column, as the export names it */
            column: string;
            /** @description What POST /api/actions would say of it */
            problem: string;
        };
        Export: {
            /** @description A time-ordered UUID (v7) */
            id: string;
            /** @enum {string} */
            format: "csv" | "xlsx";
            query: string;
            /** @enum {string} */
            status: "queued" | "running" | "done" | "failed";
            /** @description Rows written to storage so far (the header not counted) */
            rows: number;
            createdAt: string;
            /** @description When it was done or failed */
            finishedAt?: string;
            /** @description When done: a presigned GET valid 5 minutes, made afresh on each read, naming the file actions-<date>.csv or .xlsx. Columns: id, title, description, status, priority, dueAt, overdue, closedAt, assignee.id, assignee.name, assignee.email, owner.id, owner.name, owner.email, initiator.id, initiator.name, actionProducer.name, actionProducer.url, actionProducer.reference, location.businessUnit, location.site, location.department, location.workGroup, location.productiveUnit, location.team, location.crew, tags, attachments, comments, endorsements, createdAt, updatedAt, url */
            url?: string;
            /** @description When done: when the file and this record are deleted (7 days after createdAt) */
            expiresAt?: string;
            /** @description When failed: why */
            error?: string;
        };
        ChangeFeedEntry: components["schemas"]["HistoryEntry"] & {
            actionId: string;
        };
        /** @description Defaults: immediately, every event on, UTC, 7. */
        NotificationPreferences: {
            /**
             * @description `immediately`: one email per event; `daily`: one digest a day at `digestHour` in `timeZone`, listing what happened and what is overdue; `off`: no email.
             * @enum {string}
             */
            email: "immediately" | "daily" | "off";
            /** @description What to be told of: `assigned` (someone else assigns you), `dueSoon` and `overdue` (assigned to you, or yours and unassigned), `escalated` (yours or assigned to you), `comments` and `status` (someone else comments on, or changes the status of, an action you own or are assigned to). */
            events: {
                assigned: boolean;
                dueSoon: boolean;
                overdue: boolean;
                escalated: boolean;
                comments: boolean;
                status: boolean;
            };
            /**
             * @description An IANA time zone name: times in emails, and the digest hour, are in it.
             * @example Australia/Perth
             */
            timeZone: string;
            /** @description The hour (0-23, in `timeZone`) of the daily digest. */
            digestHour: number;
        };
        Grant: {
            id: string;
            principal: components["schemas"]["Principal"];
            /** @enum {string} */
            role: "viewer" | "member" | "manager" | "admin";
            scope: components["schemas"]["Scope"];
            grantedBy: components["schemas"]["Person"];
            createdAt: string;
        };
        Principal: {
            /** @enum {string} */
            type: "person";
            id: string;
        } | {
            /** @enum {string} */
            type: "group";
            /** @description A Cognito group */
            name: string;
        };
        /** @description A location prefix in the order businessUnit > site > department > workGroup > productiveUnit > team > crew: {} is everything; a field only with every field before it; values compare exactly. */
        Scope: {
            businessUnit?: string;
            site?: string;
            department?: string;
            workGroup?: string;
            productiveUnit?: string;
            team?: string;
            crew?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listActions: {
        parameters: {
            query?: {
                /** @description Case-insensitive under every operator; canonically equivalent text (NFC) compares alike. E.g. `title=*belt`. */
                title?: string;
                /** @description An integer; `*` is not allowed. E.g. `status=~1,2`. */
                status?: string;
                /** @description An integer; `*` is not allowed. E.g. `priority=>2`. */
                priority?: string;
                /** @description An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets. E.g. `dueAt=<2026-12-01`. */
                dueAt?: string;
                /** @description An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets. E.g. `createdAt=>2026-09-01`. */
                createdAt?: string;
                /** @description An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets. E.g. `updatedAt=>2026-09-01`. */
                updatedAt?: string;
                /** @description An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets. Set by the service: when the status last entered a closed status, `null` while open. An open action matches only `!` (it is on no day), and sorts before every closed one. E.g. `closedAt=>2026-01-01`. */
                closedAt?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). Matches the person's id; `me` (also in a `~` list) is the caller's id; `assignee=undefined` finds unassigned actions. E.g. `owner=u-ann`. */
                owner?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). Matches the person's id; `me` (also in a `~` list) is the caller's id; `assignee=undefined` finds unassigned actions. E.g. `assignee=undefined`. */
                assignee?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `actionProducer.name=Inspections`. */
                "actionProducer.name"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `actionProducer.reference=*INS`. */
                "actionProducer.reference"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.businessUnit=Mining`. */
                "location.businessUnit"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.site=North Pit`. */
                "location.site"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.department=HSE`. */
                "location.department"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.workGroup=WG-3`. */
                "location.workGroup"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.productiveUnit=~PU-1,PU-2`. */
                "location.productiveUnit"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.team=Night shift`. */
                "location.team"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.crew=~A\,B,C`. */
                "location.crew"?: string;
                /** @description `true` or `false`, `=` only; not a sort. E.g. `overdue=true`. */
                overdue?: string;
                /** @description Records to skip (default 0). skip + limit <= 10000. */
                skip?: number;
                /** @description Records to return (default 10; 0 returns only totalCount). skip + limit <= 10000. */
                limit?: number;
                /** @description Any filterable field; prefix "-" for descending, e.g. `-dueAt`. Default: -createdAt. Ties are broken by id in the same direction. owner/assignee sort by name. */
                sort?: "title" | "-title" | "status" | "-status" | "priority" | "-priority" | "dueAt" | "-dueAt" | "createdAt" | "-createdAt" | "updatedAt" | "-updatedAt" | "closedAt" | "-closedAt" | "owner" | "-owner" | "assignee" | "-assignee" | "actionProducer.name" | "-actionProducer.name" | "actionProducer.reference" | "-actionProducer.reference" | "location.businessUnit" | "-location.businessUnit" | "location.site" | "-location.site" | "location.department" | "-location.department" | "location.workGroup" | "-location.workGroup" | "location.productiveUnit" | "-location.productiveUnit" | "location.team" | "-location.team" | "location.crew" | "-location.crew";
                /** @description The `nextCursor` of the previous page: continues the same filters and sort, at any depth (past the 10,000 skip reaches), each page costing about `limit` entries. Send the filters and sort again exactly, or leave them out; any other filter, or skip, beside it is a 400 naming cursor. Opaque (sealed) and bound to the caller it was given to; an altered, truncated or foreign cursor, or another caller's, is a 400. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of matches and the number of matches. A list is never refused for its cost: when the read budget runs out, the page holds the matches found, in order, with a nextCursor that continues the search (a page shorter than limit with a nextCursor means exactly that) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        actions: components["schemas"]["Action"][];
                        totalCount: number;
                        /**
                         * @description `eq` when totalCount is exact; `gte` when it is a lower bound: the matches counted before the read budget ran out
                         * @enum {string}
                         */
                        totalCountRelation: "eq" | "gte";
                        /** @description Present when more matches may follow this page */
                        nextCursor?: string;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createAction: {
        parameters: {
            query?: never;
            header?: {
                /** @description draft-ietf-httpapi-idempotency-key-header-07: 1-255 printable ASCII characters (a structured-field string `"..."` names the text inside the quotes), else 400. For 24 hours, a repeat by the same caller with the same key and body gets the first response again (status, body, Location) and creates nothing; the same key with another request is a 422, a repeat while the first is still processed a 409. Keys are per caller. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    title: string;
                    description?: string;
                    actionProducer: {
                        name: string;
                        url?: string;
                        reference?: string;
                    };
                    location?: {
                        businessUnit?: string;
                        site?: string;
                        department?: string;
                        workGroup?: string;
                        productiveUnit?: string;
                        team?: string;
                        crew?: string;
                    };
                    allowAnonymousEdits?: boolean;
                    /** @example 2026-12-01T10:00:00Z */
                    dueAt: string;
                    /** @example 2 */
                    priority: number | string;
                    /** @example 2 */
                    status: number | string;
                    attachments?: {
                        url: string;
                        name?: string;
                        contentType?: string;
                        size?: number;
                    }[];
                    tags?: string[];
                    assignee?: {
                        id: string;
                        name?: string;
                        /** Format: email */
                        email?: string | null;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used with another request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getTrends: {
        parameters: {
            query: {
                /** @description The bucket size */
                interval: "day" | "week" | "month";
                /** @description The first day, YYYY-MM-DD (UTC) */
                from: string;
                /** @description The last day, YYYY-MM-DD (UTC), today at the latest */
                to: string;
                /** @description `=` only; only with every location field before it */
                "location.businessUnit"?: string;
                /** @description `=` only; only with every location field before it */
                "location.site"?: string;
                /** @description `=` only; only with every location field before it */
                "location.department"?: string;
                /** @description `=` only; only with every location field before it */
                "location.workGroup"?: string;
                /** @description `=` only; only with every location field before it */
                "location.productiveUnit"?: string;
                /** @description `=` only; only with every location field before it */
                "location.team"?: string;
                /** @description `=` only; only with every location field before it */
                "location.crew"?: string;
                /** @description `=` only */
                "actionProducer.name"?: string;
                /** @description `=` only, an integer */
                priority?: string;
                /** @description `=` only, a person's id, `me` or `undefined` */
                assignee?: string;
                /** @description `=` only, a person's id or `me` */
                owner?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The buckets, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        interval: "day" | "week" | "month";
                        from: string;
                        to: string;
                        buckets: {
                            /** @description First day of the bucket (YYYY-MM-DD) */
                            start: string;
                            /** @description Last day of the bucket (YYYY-MM-DD) */
                            end: string;
                            created: number;
                            closed: number;
                            reopened: number;
                            closedOnTime: number;
                            /** @description One decimal; null when nothing closed */
                            meanDaysToClose: number | null;
                            /** @description null for days before a snapshot was recorded */
                            openAtEnd: number | null;
                            overdueAtEnd: number | null;
                        }[];
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    countActions: {
        parameters: {
            query: {
                /** @description The field to group by, once or twice (a pair of fields groups by both) */
                by: ("status" | "priority" | "assignee" | "owner" | "actionProducer.name" | "location.businessUnit" | "location.site" | "location.department" | "location.workGroup" | "location.productiveUnit" | "location.team" | "location.crew" | "overdueAge")[];
                /** @description Groups to return (default 100) */
                limit?: number;
                /** @description Case-insensitive under every operator; canonically equivalent text (NFC) compares alike. E.g. `title=*belt`. */
                title?: string;
                /** @description An integer; `*` is not allowed. E.g. `status=~1,2`. */
                status?: string;
                /** @description An integer; `*` is not allowed. E.g. `priority=>2`. */
                priority?: string;
                /** @description An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets. E.g. `dueAt=<2026-12-01`. */
                dueAt?: string;
                /** @description An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets. E.g. `createdAt=>2026-09-01`. */
                createdAt?: string;
                /** @description An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets. E.g. `updatedAt=>2026-09-01`. */
                updatedAt?: string;
                /** @description An ISO 8601 date-time with an offset or Z, or a date (YYYY-MM-DD) that stands for that whole UTC day. Percent-encode `+` in offsets. Set by the service: when the status last entered a closed status, `null` while open. An open action matches only `!` (it is on no day), and sorts before every closed one. E.g. `closedAt=>2026-01-01`. */
                closedAt?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). Matches the person's id; `me` (also in a `~` list) is the caller's id; `assignee=undefined` finds unassigned actions. E.g. `owner=u-ann`. */
                owner?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). Matches the person's id; `me` (also in a `~` list) is the caller's id; `assignee=undefined` finds unassigned actions. E.g. `assignee=undefined`. */
                assignee?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `actionProducer.name=Inspections`. */
                "actionProducer.name"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `actionProducer.reference=*INS`. */
                "actionProducer.reference"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.businessUnit=Mining`. */
                "location.businessUnit"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.site=North Pit`. */
                "location.site"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.department=HSE`. */
                "location.department"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.workGroup=WG-3`. */
                "location.workGroup"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.productiveUnit=~PU-1,PU-2`. */
                "location.productiveUnit"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.team=Night shift`. */
                "location.team"?: string;
                /** @description Exact, except `*` (a case-insensitive substring; canonically equivalent text compares alike). E.g. `location.crew=~A\,B,C`. */
                "location.crew"?: string;
                /** @description `true` or `false`, `=` only; not a sort. E.g. `overdue=true`. */
                overdue?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The groups, their counts, and the total */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        by: string[];
                        groups: {
                            /** @description Each by field's value as the list filter takes it (a person's id, `undefined` for nobody assigned, a status as a string) */
                            key: {
                                [key: string]: string;
                            };
                            /** @description A person's name for assignee and owner; {} otherwise */
                            label: {
                                [key: string]: string;
                            };
                            count: number;
                            overdue: number;
                            /**
                             * @description Present only when count is a lower bound, as the list would say
                             * @enum {string}
                             */
                            countRelation?: "gte";
                        }[];
                        totalCount: number;
                        /** @enum {string} */
                        totalCountRelation: "eq" | "gte";
                        /** @description The sum of the counts of the groups past limit */
                        otherCount: number;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The action; ETag header carries its version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Action"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteAction: {
        parameters: {
            query?: never;
            header?: {
                /** @description `*`, or one or more ETags from GET or PATCH, quoted as they come (`"3"`); strong comparison, so a weak `W/"3"` never matches. A stale one is a 412 whose ETag header is the current version; anything else is a 400. */
                "if-match"?: string;
            };
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not allowed for this caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description If-Match does not match the current version; the ETag header carries the current one. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateAction: {
        parameters: {
            query?: never;
            header?: {
                /** @description `*`, or one or more ETags from GET or PATCH, quoted as they come (`"3"`); strong comparison, so a weak `W/"3"` never matches. A stale one is a 412 whose ETag header is the current version; anything else is a 400. */
                "if-match"?: string;
            };
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/merge-patch+json": {
                    title?: string;
                    description?: string | null;
                    actionProducer?: {
                        url?: string | null;
                    };
                    location?: {
                        businessUnit?: string | null;
                        site?: string | null;
                        department?: string | null;
                        workGroup?: string | null;
                        productiveUnit?: string | null;
                        team?: string | null;
                        crew?: string | null;
                    } | null;
                    allowAnonymousEdits?: boolean;
                    /** @example 2026-12-01T10:00:00Z */
                    dueAt?: string;
                    /** @example 2 */
                    priority?: number | string;
                    /** @example 2 */
                    status?: number | string;
                    attachments?: {
                        url: string;
                        name?: string;
                        contentType?: string;
                        size?: number;
                    }[] | null;
                    tags?: string[] | null;
                    assignee?: {
                        id: string;
                        name?: string;
                        /** Format: email */
                        email?: string | null;
                    } | null;
                };
                "application/json": {
                    title?: string;
                    description?: string | null;
                    actionProducer?: {
                        url?: string | null;
                    };
                    location?: {
                        businessUnit?: string | null;
                        site?: string | null;
                        department?: string | null;
                        workGroup?: string | null;
                        productiveUnit?: string | null;
                        team?: string | null;
                        crew?: string | null;
                    } | null;
                    allowAnonymousEdits?: boolean;
                    /** @example 2026-12-01T10:00:00Z */
                    dueAt?: string;
                    /** @example 2 */
                    priority?: number | string;
                    /** @example 2 */
                    status?: number | string;
                    attachments?: {
                        url: string;
                        name?: string;
                        contentType?: string;
                        size?: number;
                    }[] | null;
                    tags?: string[] | null;
                    assignee?: {
                        id: string;
                        name?: string;
                        /** Format: email */
                        email?: string | null;
                    } | null;
                };
            };
        };
        responses: {
            /** @description The updated action with its new ETag */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Action"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not allowed for this caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description If-Match does not match the current version; the ETag header carries the current one. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listComments: {
        parameters: {
            query?: {
                /** @description Entries per page (default 50) */
                limit?: number;
                /** @description The `nextCursor` of the previous page; opaque (sealed), valid for this action and the caller it was given to only */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of comments; nextCursor is absent on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        comments: components["schemas"]["Comment"][];
                        nextCursor?: string;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    addComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description draft-ietf-httpapi-idempotency-key-header-07: 1-255 printable ASCII characters (a structured-field string `"..."` names the text inside the quotes), else 400. For 24 hours, a repeat by the same caller with the same key and body gets the first response again (status, body, Location) and creates nothing; the same key with another request is a 422, a repeat while the first is still processed a 409. Keys are per caller. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    text: string;
                };
            };
        };
        responses: {
            /** @description The comment; Location names it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The Idempotency-Key was used with another request (method, path or body). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
                /** @description The comment id */
                commentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not allowed for this caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    editComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
                /** @description The comment id */
                commentId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    text: string;
                };
                "application/merge-patch+json": {
                    text: string;
                };
            };
        };
        responses: {
            /** @description The edited comment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not allowed for this caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    endorseAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The action with its ETag */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Action"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    withdrawEndorsement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Withdrawn (also when there was none) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHistory: {
        parameters: {
            query?: {
                /** @description Entries per page (default 50) */
                limit?: number;
                /** @description The `nextCursor` of the previous page; opaque (sealed), valid for this action and the caller it was given to only */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of history entries; nextCursor is absent on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["HistoryEntry"][];
                        nextCursor?: string;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every subscription of the caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhooks: components["schemas"]["Webhook"][];
                    };
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    url: string;
                    events?: string[];
                    description?: string;
                };
            };
        };
        responses: {
            /** @description The subscription and its secret; Location names it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"] & {
                        secret: string;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/merge-patch+json": {
                    url?: string;
                    events?: string[];
                    description?: string | null;
                    enabled?: boolean;
                };
                "application/json": {
                    url?: string;
                    events?: string[];
                    description?: string | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description The subscription */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secret: string;
                    };
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ping is on its way; see the delivery log */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveryId: string;
                    };
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Entries per page (default 50) */
                limit?: number;
                /** @description The `nextCursor` of the previous page; opaque (sealed), valid for this action and the caller it was given to only */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries with their attempts; nextCursor is absent on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: components["schemas"]["WebhookDelivery"][];
                        nextCursor?: string;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempt is on its way */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The file name to show and download as; one line */
                    name: string;
                    /**
                     * @description One of ATTACHMENT_TYPES (default image/jpeg, image/png, image/webp, image/heic, application/pdf)
                     * @example image/jpeg
                     */
                    contentType: string;
                    /** @description The exact size in bytes, at most ATTACHMENT_MAX_BYTES (default 26214400) */
                    size: number;
                };
            };
        };
        responses: {
            /** @description The presigned POST */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Upload"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not allowed for this caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    attachUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description As POST .../uploads answered it */
                    uploadId: string;
                };
            };
        };
        responses: {
            /** @description Already attached: the attachment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadedAttachment"];
                };
            };
            /** @description The attachment; Location is where to read it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadedAttachment"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not allowed for this caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
                /** @description The uploaded attachment's id */
                attachmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file itself, for a client that follows the redirect: answered by storage, with the stored content type, a Content-Disposition naming the file (no path in the name) and X-Content-Type-Options: nosniff where storage sends it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                    "image/png": string;
                    "image/webp": string;
                    "image/heic": string;
                    "application/pdf": string;
                };
            };
            /** @description Location: the presigned GET */
            302: {
                headers: {
                    /** @description The presigned GET (5 minutes) */
                    location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action id */
                id: string;
                /** @description The uploaded attachment's id */
                attachmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not allowed for this caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The action already has the most endorsements it can hold, or the caller the most webhook subscriptions (or the subscription is disabled); or (Idempotency-Key) a request with this key is still being processed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createImportUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description The file's name; one line */
                    name: string;
                    /**
                     * @description CSV (text/csv, or application/vnd.ms-excel as Windows browsers declare it) or XLSX; the worker reads the kind from the bytes
                     * @enum {string}
                     */
                    contentType: "text/csv" | "application/vnd.ms-excel" | "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
                    /** @description The exact size in bytes, at most 50 MB (52428800) */
                    size: number;
                };
            };
        };
        responses: {
            /** @description The presigned POST */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportUpload"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description As POST /api/imports/uploads answered it */
                    uploadId: string;
                    /** @description true: check and report every row, create nothing */
                    dryRun: boolean;
                };
            };
        };
        responses: {
            /** @description Queued (or, for a real run asked again, the import as it stands) */
            202: {
                headers: {
                    /** @description /api/imports/{id} */
                    location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportSummary"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Import"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listExports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The exports */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        exports: components["schemas"]["Export"][];
                    };
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description CSV (RFC 4180, UTF-8 with a BOM, CRLF) or XLSX (one sheet "Actions")
                     * @enum {string}
                     */
                    format: "csv" | "xlsx";
                    /**
                     * @description The filters and `sort` of GET /api/actions, as its query string, checked the same way (each problem named under `query`); `skip`, `limit` and `cursor` are a 400. "" exports every action the caller sees, newest first.
                     * @example status=~1,2&location.site=North%20Pit&sort=dueAt
                     */
                    query: string;
                };
            };
        };
        responses: {
            /** @description Queued; Location is where to follow it */
            202: {
                headers: {
                    /** @description /api/exports/{id} */
                    location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listChanges: {
        parameters: {
            query?: {
                /** @description Entries per page (default 100) */
                limit?: number;
                /** @description The `nextCursor` of the previous page: continue after it */
                after?: string;
                /** @description Instead of `after`: start at this ISO 8601 date-time (with an offset or Z). With neither, the feed starts at the beginning. */
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries and the cursor to continue with */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["ChangeFeedEntry"][];
                        nextCursor: string;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getNotificationPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preferences */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreferences"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateNotificationPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/merge-patch+json": {
                    /** @enum {string|null} */
                    email?: "immediately" | "daily" | "off" | null;
                    events?: {
                        assigned?: boolean | null;
                        dueSoon?: boolean | null;
                        overdue?: boolean | null;
                        escalated?: boolean | null;
                        comments?: boolean | null;
                        status?: boolean | null;
                    } | null;
                    timeZone?: string | null;
                    digestHour?: number | null;
                };
                "application/json": {
                    /** @enum {string|null} */
                    email?: "immediately" | "daily" | "off" | null;
                    events?: {
                        assigned?: boolean | null;
                        dueSoon?: boolean | null;
                        overdue?: boolean | null;
                        escalated?: boolean | null;
                        comments?: boolean | null;
                        status?: boolean | null;
                    } | null;
                    timeZone?: string | null;
                    digestHour?: number | null;
                };
            };
        };
        responses: {
            /** @description The preferences now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreferences"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    unsubscribeNotifications: {
        parameters: {
            query: {
                person: string;
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Email is off */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: the API's throttle (AWS only). Retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listGrants: {
        parameters: {
            query?: {
                /** @description 1-100, default 50 */
                limit?: number;
                /** @description The nextCursor of the page before, with the same filters */
                cursor?: string;
                /** @description Grants to this person */
                "principal.id"?: string;
                /** @description Grants to this group */
                "principal.name"?: string;
                role?: "viewer" | "member" | "manager" | "admin";
                /** @description Grants whose scope's businessUnit is exactly this */
                "scope.businessUnit"?: string;
                /** @description Grants whose scope's site is exactly this */
                "scope.site"?: string;
                /** @description Grants whose scope's department is exactly this */
                "scope.department"?: string;
                /** @description Grants whose scope's workGroup is exactly this */
                "scope.workGroup"?: string;
                /** @description Grants whose scope's productiveUnit is exactly this */
                "scope.productiveUnit"?: string;
                /** @description Grants whose scope's team is exactly this */
                "scope.team"?: string;
                /** @description Grants whose scope's crew is exactly this */
                "scope.crew"?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of grants; nextCursor is absent on the last page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        grants: components["schemas"]["Grant"][];
                        nextCursor?: string;
                    };
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createGrant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    principal: {
                        /** @enum {string} */
                        type: "person";
                        id: string;
                    } | {
                        /** @enum {string} */
                        type: "group";
                        name: string;
                    };
                    /** @enum {string} */
                    role: "viewer" | "member" | "manager" | "admin";
                    scope: {
                        businessUnit?: string;
                        site?: string;
                        department?: string;
                        workGroup?: string;
                        productiveUnit?: string;
                        team?: string;
                        crew?: string;
                    };
                };
            };
        };
        responses: {
            /** @description The very same grant existed already */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Grant"];
                };
            };
            /** @description Granted; Location names it */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Grant"];
                };
            };
            /** @description The request is invalid; `errors` names each parameter or field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not allowed for this caller. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON (PATCH also takes application/merge-patch+json), or not UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such action (or comment, or webhook subscription of the caller). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        email: string | null;
                        groups: string[];
                        grants: {
                            id?: string;
                            principal: components["schemas"]["Principal"];
                            /** @enum {string} */
                            role: "viewer" | "member" | "manager" | "admin";
                            scope: components["schemas"]["Scope"];
                            grantedBy?: components["schemas"]["Person"];
                            createdAt?: string;
                        }[];
                    };
                };
            };
            /** @description A valid bearer token (a Cognito ID token) is required. WWW-Authenticate and the detail say whether it was missing, expired or not valid, and where tokens come from. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The caller has used up its requests or index entries read this minute (RateLimit fields); Retry-After says in how many seconds the quota refills. Nothing was done. In AWS the API's throttle also answers 429, with its own small JSON body. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
            /** @description The store is busy or unreachable; see Retry-After. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    openApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Too many requests: the API's throttle (AWS only). Retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
        };
    };
    docs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Too many requests: the API's throttle (AWS only). Retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
        };
    };
    docsFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A file of the page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description No documentation file has that name. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: the API's throttle (AWS only). Retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example Too Many Requests */
                        message: string;
                    };
                };
            };
        };
    };
    onActionDueSoon: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "ActionDueSoon";
                    timestamp: string;
                    data: components["schemas"]["ReminderEventDetail"];
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds is a success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the subscription is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onActionOverdue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "ActionOverdue";
                    timestamp: string;
                    data: components["schemas"]["ReminderEventDetail"];
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds is a success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the subscription is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onActionEscalated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "ActionEscalated";
                    timestamp: string;
                    data: components["schemas"]["ReminderEventDetail"];
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds is a success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the subscription is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
