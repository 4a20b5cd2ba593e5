/* glsl_names.c - the GLSL names JavaScript names become. The front end's own variables and functions
 * take a prefix (js_mangle: js_, jsf_, jsk_...; escaped where the plain form could meet another name
 * or a word of the runtime helpers); names that reach GLSL as they are (constants, seen as
 * constants.<name>) must avoid GLSL 4.50's keywords, reserved words and built-in types, and the names
 * gpuc's kernel code declares. */
#include "js/glsl_names.h"
#include "js/front_end.h"
#include "js/runtime/runtime.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const reserved[] = {
    /* GLSL 4.50 keywords */
    "attribute", "const", "uniform", "varying", "buffer", "shared", "coherent", "volatile", "restrict",
    "readonly", "writeonly", "atomic_uint", "layout", "centroid", "flat", "smooth", "noperspective", "patch",
    "sample", "break", "continue", "do", "for", "while", "switch", "case", "default", "if", "else",
    "subroutine", "in", "out", "inout", "float", "double", "int", "void", "bool", "true", "false",
    "invariant", "precise", "discard", "return", "mat2", "mat3", "mat4", "dmat2", "dmat3", "dmat4",
    "mat2x2", "mat2x3", "mat2x4", "dmat2x2", "dmat2x3", "dmat2x4", "mat3x2", "mat3x3", "mat3x4", "dmat3x2",
    "dmat3x3", "dmat3x4", "mat4x2", "mat4x3", "mat4x4", "dmat4x2", "dmat4x3", "dmat4x4", "vec2", "vec3",
    "vec4", "ivec2", "ivec3", "ivec4", "bvec2", "bvec3", "bvec4", "dvec2", "dvec3", "dvec4", "uint",
    "uvec2", "uvec3", "uvec4", "lowp", "mediump", "highp", "precision", "sampler1D", "sampler2D",
    "sampler3D", "samplerCube", "sampler1DShadow", "sampler2DShadow", "samplerCubeShadow",
    "sampler1DArray", "sampler2DArray", "sampler1DArrayShadow", "sampler2DArrayShadow", "isampler1D",
    "isampler2D", "isampler3D", "isamplerCube", "isampler1DArray", "isampler2DArray", "usampler1D",
    "usampler2D", "usampler3D", "usamplerCube", "usampler1DArray", "usampler2DArray", "sampler2DRect",
    "sampler2DRectShadow", "isampler2DRect", "usampler2DRect", "samplerBuffer", "isamplerBuffer",
    "usamplerBuffer", "sampler2DMS", "isampler2DMS", "usampler2DMS", "sampler2DMSArray",
    "isampler2DMSArray", "usampler2DMSArray", "samplerCubeArray", "samplerCubeArrayShadow",
    "isamplerCubeArray", "usamplerCubeArray", "image1D", "iimage1D", "uimage1D", "image2D", "iimage2D",
    "uimage2D", "image3D", "iimage3D", "uimage3D", "image2DRect", "iimage2DRect", "uimage2DRect",
    "imageCube", "iimageCube", "uimageCube", "imageBuffer", "iimageBuffer", "uimageBuffer", "image1DArray",
    "iimage1DArray", "uimage1DArray", "image2DArray", "iimage2DArray", "uimage2DArray", "imageCubeArray",
    "iimageCubeArray", "uimageCubeArray", "image2DMS", "iimage2DMS", "uimage2DMS", "image2DMSArray",
    "iimage2DMSArray", "uimage2DMSArray", "struct",
    /* reserved for future use */
    "common", "partition", "active", "asm", "class", "union", "enum", "typedef", "template", "this",
    "resource", "goto", "inline", "noinline", "public", "static", "extern", "external", "interface",
    "long", "short", "half", "fixed", "unsigned", "superp", "input", "output", "hvec2", "hvec3", "hvec4",
    "fvec2", "fvec3", "fvec4", "sampler3DRect", "filter", "sizeof", "cast", "namespace", "using",
    /* what gpuc's kernel code declares */
    "thread", "outputSize", "outputIndex", "constants", "main", "result", "index", NULL};

bool js_glsl_reserved(const char *name)
{
    if (!strncmp(name, "gl_", 3) || !strncmp(name, "gpuc_", 5) || strstr(name, "__"))
        return true;
    for (int i = 0; reserved[i]; i++)
        if (!strcmp(reserved[i], name))
            return true;
    return false;
}

void js_constant_glsl(const char *name, char *out, size_t n)
{
    if (!js_glsl_reserved(name) && !strchr(name, '$')) {
        snprintf(out, n, "%s", name);
        return;
    }
    /* "x_" marks the escape, as js_mangle's: `_` -> u, `$` -> d. */
    size_t len = (size_t)snprintf(out, n, "jscx_");
    for (const char *s = name; *s && len + 1 < n; s++)
        out[len++] = *s == '_' ? 'u' : *s == '$' ? 'd' : *s;
    if (len < n)
        out[len] = '\0';
}

/* Whether the GLSL runtime helpers (runtime.c) use the word `word`: a user's name that became it
 * would hide the helper inside its function. The helpers' text is made once per translation. */
static bool runtime_word(js_ctx *c, const char *word)
{
    if (!c->runtime_words) {
        js_runtime_use all;
        memset(&all, 1, sizeof all); /* every helper (each field is a bool) */
        strbuf text = {0};
        js_runtime_emit(&text, &all, 1);
        char *t = strbuf_take(&text);
        c->runtime_words = t ? js_arena_strndup(c->arena, t, strlen(t)) : NULL;
        free(t);
        if (!c->runtime_words) {
            c->oom = true;
            js_fail(c, NULL, "out of memory");
        }
    }
    size_t n = strlen(word);
    for (const char *p = c->runtime_words; (p = strstr(p, word)) != NULL; p += n)
        if ((p == c->runtime_words || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
            !(isalnum((unsigned char)p[n]) || p[n] == '_'))
            return true;
    return false;
}

const char *js_mangle(js_ctx *c, const char *prefix, const char *name)
{
    size_t n = strlen(name);
    bool plain = n > 0 && name[0] != '_' && name[n - 1] != '_' && !strstr(name, "__") && !strchr(name, '$');
    if (plain && !strcmp(prefix, "js_")) {
        char word[256];
        snprintf(word, sizeof word, "js_%s", name);
        plain = !runtime_word(c, word);
    }
    char *out = js_alloc(c, strlen(prefix) + 2 * n + 3, NULL);
    if (plain) {
        sprintf(out, "%s%s", prefix, name);
        return out;
    }
    /* "x" marks an escaped name: `_` -> u, `$` -> d; no plain name can produce it. */
    char *o = out + sprintf(out, "%.*sx_", (int)strlen(prefix) - 1, prefix);
    for (const char *s = name; *s; s++)
        *o++ = *s == '_' ? 'u' : *s == '$' ? 'd' : *s;
    *o = '\0';
    return out;
}
