/* types.c - see types.h. */
#include "js/types.h"

const char *js_type_glsl(js_type t)
{
    switch (t) {
    case T_BOOL: return "bool";
    case T_INT: case T_LIT: return "int";
    case T_FLOAT: return "float";
    case T_VEC2: return "vec2";
    case T_VEC3: return "vec3";
    case T_VEC4: return "vec4";
    case T_MAT2: return "mat2";
    case T_MAT3: return "mat3";
    case T_MAT4: return "mat4";
    default: return "void";
    }
}

bool js_is_numeric(js_type t)
{
    return t == T_INT || t == T_LIT || t == T_FLOAT;
}

bool js_is_vec(js_type t)
{
    return t == T_VEC2 || t == T_VEC3 || t == T_VEC4;
}

int js_vec_size(js_type t)
{
    return t == T_VEC2 ? 2 : t == T_VEC3 ? 3 : t == T_VEC4 ? 4 : 1;
}

bool js_is_mat(js_type t)
{
    return t == T_MAT2 || t == T_MAT3 || t == T_MAT4;
}

int js_mat_size(js_type t)
{
    return t == T_MAT2 ? 2 : t == T_MAT3 ? 3 : 4;
}

js_type js_mat_row(js_type t)
{
    return t == T_MAT2 ? T_VEC2 : t == T_MAT3 ? T_VEC3 : T_VEC4;
}

js_type js_mat_of(js_type row)
{
    return row == T_VEC2 ? T_MAT2 : row == T_VEC3 ? T_MAT3 : T_MAT4;
}

bool js_is_intlike(js_type t)
{
    return t == T_INT || t == T_LIT;
}

const char *js_type_words(js_type t)
{
    switch (t) {
    case T_BOOL: return "a boolean";
    case T_INT: case T_LIT: case T_FLOAT: return "a number";
    case T_VEC2: return "an array of 2";
    case T_VEC3: return "an array of 3";
    case T_VEC4: return "an array of 4";
    case T_MAT2: return "a 2x2 matrix";
    case T_MAT3: return "a 3x3 matrix";
    case T_MAT4: return "a 4x4 matrix";
    default: return "nothing";
    }
}


bool js_same_kind(js_type a, js_type b)
{
    return a == b || (js_is_numeric(a) && js_is_numeric(b));
}
