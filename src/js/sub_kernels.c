/* sub_kernels.c - kernel maps on JavaScript kernels (GPU.js's createKernelMap): each map output names a
 * JS helper, or brings one as source. Every `return` of such a sub-kernel (in each of its
 * specialisations) passes its value through a GLSL identity function, jsm<output>, whose calls gpuc's
 * kernel map keeps: what the sub-kernel last returned in a cell, as GPU.js's subKernelResult_<name>. */
#include "js/sub_kernels.h"
#include "js/functions.h"
#include "js/parser.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

/* Whether a map entry's function is a name (else it is a JavaScript function's source). */
static bool is_plain_name(const char *s)
{
    if (!s || !*s || (!isalpha((unsigned char)*s) && *s != '_' && *s != '$'))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '$')
            return false;
    return true;
}

/* Sub-kernels given as source become helpers (an anonymous one named by its output, as GPU.js
 * does); every sub-kernel gets the keeper function its returns go through. */
void js_load_map(js_ctx *c)
{
    c->map = c->settings->map;
    c->nmap = c->settings->map ? c->settings->nmap : 0;
    for (int i = 0; i < c->nmap; i++) {
        js_map_entry *m = &c->settings->map[i];
        m->keeper[0] = '\0';
        if (!m->function) {
            snprintf(c->err, c->errlen, "map output \"%s\" names no function", m->name);
            longjmp(c->fail, 1);
        }
        js_func *f = NULL;
        if (is_plain_name(m->function)) {
            f = js_find_func(c, m->function);
            if (!f && js_find_native(c, m->function) >= 0) {
                snprintf(m->keeper, sizeof m->keeper, "%s", m->function); /* a GLSL function: kept as is */
                continue;
            }
            if (!f) {
                snprintf(c->err, c->errlen, "map output \"%s\" keeps `%s`, which is not a function of the kernel's "
                         "source nor one added with gpuc_add_function", m->name, m->function);
                longjmp(c->fail, 1);
            }
        } else {
            js_program prog;
            char err[512], origin[96];
            if (!js_parse(m->function, c->arena, &prog, err, sizeof err) || prog.nfuncs != 1) {
                snprintf(c->err, c->errlen, "in the function of map output \"%s\": %s", m->name,
                         prog.nfuncs > 1 ? "more than one function" : err);
                longjmp(c->fail, 1);
            }
            js_node *fn = prog.funcs[0];
            if (!fn->name)
                fn->name = m->name;
            snprintf(origin, sizeof origin, "sub-kernel '%.60s'", fn->name);
            const char *o = js_arena_strndup(c->arena, origin, strlen(origin));
            c->origin = o;
            f = js_register_func(c, fn, o);
            js_hoist_body(c, fn, o);
            c->origin = NULL;
        }
        if (f->keeper) {
            snprintf(c->err, c->errlen, "map outputs \"%s\" and another keep the same function `%s`; give each "
                     "output its own function", m->name, f->name);
            longjmp(c->fail, 1);
        }
        /* Named by the output's index: short whatever the helper's name (gpuc's map keeps names under
         * 64 characters), and no user name becomes jsm<digit> (theirs take js_, jsf_... prefixes). */
        snprintf(m->keeper, sizeof m->keeper, "jsm%d", i);
        f->keeper = js_arena_strndup(c->arena, m->keeper, strlen(m->keeper));
        if (!f->keeper) {
            c->oom = true;
            js_fail(c, f->node, "out of memory");
        }
    }
}

/* The type a sub-kernel returns (all its specialisations alike); it must be called. */
static js_type sub_kernel_type(js_ctx *c, const js_map_entry *m, js_func *f)
{
    js_type t = f->checked ? f->ret : T_NONE;
    for (int s = 0; s < c->nspecs; s++) {
        js_func *g = c->specs[s];
        if (g->base != f || !g->checked)
            continue;
        if (t != T_NONE && g->ret != t)
            js_fail(c, f->node, "the sub-kernel `%s` returns %s in one call and %s in another; map output \"%s\" "
                    "needs one type", f->name, js_type_words(t), js_type_words(g->ret), m->name);
        t = g->ret;
    }
    if (t == T_NONE)
        js_fail(c, f->node, "the sub-kernel `%s` of map output \"%s\" is never called by the kernel", f->name, m->name);
    if (t == T_VOID || t == T_BOOL || js_is_mat(t))
        js_fail(c, f->node, "the sub-kernel `%s` of map output \"%s\" must return a number or an array of 2-4 numbers",
                f->name, m->name);
    return t;
}

/* The identity function a sub-kernel's returns pass through: gpuc's kernel map keeps its calls. */
void js_emit_keepers(js_ctx *c)
{
    for (int i = 0; i < c->nfuncs; i++) {
        js_func *f = c->funcs[i];
        if (!f->keeper)
            continue;
        const js_map_entry *m = NULL;
        for (int j = 0; j < c->nmap; j++)
            if (!strcmp(c->map[j].keeper, f->keeper))
                m = &c->map[j];
        const char *t = js_type_glsl(sub_kernel_type(c, m, f));
        strbuf_printf(&c->out, "\n%s %s(%s v) {\n    return v;\n}\n", t, f->keeper, t);
    }
}

