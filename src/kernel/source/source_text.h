/* source_text.h - the lexical classes every reader of kernel source shares (the signature scanner, the
 * preprocessor and macro readers, the call, nesting and write finders, the loop readers): GLSL's
 * identifier characters and its white space, one definition each so the readers cannot disagree. */
#ifndef GPUC_SOURCE_TEXT_H
#define GPUC_SOURCE_TEXT_H

#include <stdbool.h>

static inline bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* White space within a line: a directive or a continued line ends at '\n', so it is not blank there. */
static inline bool text_is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* White space anywhere, line breaks included. */
static inline bool text_is_space(char c)
{
    return c == '\n' || text_is_blank(c);
}

#endif
