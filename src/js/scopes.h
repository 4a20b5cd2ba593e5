/* scopes.h - the names in force while the checker walks a function: a stack of variables (the
 * kernel's and helpers' parameters, locals block by block, `var`s to the end of their function), the
 * versions of a `var` declared again with another type, and the poison entries that mark where paths
 * bring different versions of one name (see js_var in front_end.h). */
#ifndef GPUC_JS_SCOPES_H
#define GPUC_JS_SCOPES_H

#include "js/front_end.h"

/* The GLSL prefix of the current function's own variables ("js_", "jsh_" in a specialised helper). */
const char *js_local_prefix(const js_ctx *c);
/* Puts v in scope (fails past JS_MAX_SCOPE). */
void js_scope_push(js_ctx *c, js_var *v, const js_node *at);
/* The innermost entry named name from scope entry `from` up (no further down than the function's own
 * first entry), poison entries included; NULL when none. */
js_var *js_scope_lookup(js_ctx *c, const char *name, int from);
/* js_scope_lookup for a use of name: fails on a poison entry, marks a `var` used after its block. */
js_var *js_scope_find(js_ctx *c, const char *name, int from);
/* Ends the block that began at scope entry mark: its names go out of scope, its `var`s stay. */
void js_scope_pop(js_ctx *c, int mark);
/* The entry for name among the scope's first `top` entries (of the function being checked). */
js_var *js_lookup_below(js_ctx *c, const char *name, int top);
/* The version of the `var` family of `existing` that holds `type` (made on first use). */
js_var *js_var_version(js_ctx *c, js_var *existing, js_type type, const js_node *at);
/* Pushes a poison entry: name holds a (a version or a poison entry) on one path and b on another. */
void js_push_poison(js_ctx *c, js_var *a, js_var *b, const js_node *at);
/* At the head of a loop (or a switch) made of the statements `parts`: poisons each `var` they declare
 * that holds more than one version there; returns the chain of those entries, for js_repoison. */
js_var *js_poison_loop(js_ctx *c, js_node *const *parts, int nparts, const js_node *at);
/* Pushes the entries of chain again (after the loop, or at each further case of a switch). */
void js_repoison(js_ctx *c, js_var *chain, const js_node *at);

#endif
