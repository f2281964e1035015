/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON forms of trace events and headers (json-c objects), as printed by
 * `refault trace dump --json` and read by `refault trace convert`.
 * An event is one flat object: {"t": ns, "cpu": n, "pid": n, "type": "file_read",
 * <field>: value, ...} with the field names of docs/trace-format.md.
 */
#ifndef REFAULT_TRACE_JSON_H
#define REFAULT_TRACE_JSON_H

#include <refault/api.h>

#include <json-c/json.h>

#include <refault/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A new JSON object for @ev (caller puts it), or NULL when out of memory. */
RF_API json_object *rf_event_to_json(const struct rf_event *ev);

/*
 * Fill @ev from @obj.  Strings, frames and counters point into @obj or into
 * storage kept in *@scratch (free it with rf_json_scratch_free()), valid
 * until the next call with the same scratch.  @errmsg says which field is
 * wrong on failure.
 */
struct rf_json_scratch;
RF_API int rf_event_from_json(json_object *obj, struct rf_event *ev, struct rf_json_scratch **scratch,
		       char *errmsg, size_t errlen);
RF_API void rf_json_scratch_free(struct rf_json_scratch *scratch);

RF_API json_object *rf_header_to_json(const struct rf_trace_header *h);
/* Unknown keys are ignored; missing ones keep the values already in @h. */
RF_API int rf_header_from_json(json_object *obj, struct rf_trace_header *h, char *errmsg, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* REFAULT_TRACE_JSON_H */
