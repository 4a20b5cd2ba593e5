/* glsl_names.c - the names a JavaScript name cannot keep in GLSL: GLSL 4.50's keywords, reserved
 * words and built-in types, and the names gpuc's kernel code declares. The front end prefixes its
 * own variables and functions, so only names that reach GLSL as they are (constants, seen as
 * constants.<name>) need this list. */
#include "js/front_end.h"

#include <stdio.h>
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
