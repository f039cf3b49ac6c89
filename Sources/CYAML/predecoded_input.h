#ifndef WIRING_CYAML_PREDECODED_INPUT_H
#define WIRING_CYAML_PREDECODED_INPUT_H
#include <yaml.h>
#include <stdlib.h>
#include <string.h>

/* ---- Input libyaml need not decode -----------------------------------------------------------

   libyaml's reader decodes its input into the scanner's buffer one character at a time,
   checking that each is one YAML allows: about a fifth of what a parse costs. UTF-8 input is
   copied to that buffer byte for byte, so when the reader's checks are made here first, in one
   fast pass, the scanner can be given the input as its whole buffer at once: with the end of
   the input marked as reached, libyaml's reader has nothing left to do, and the scanner sees
   exactly what the reader would have given it (the characters, then a NUL). Marks, tokens and
   events are the same.

   This relies on the reader's fields of `yaml_parser_t` (public in yaml.h) meaning what they
   have meant since libyaml 0.1: `buffer` holds decoded UTF-8 ending with a NUL, `unread`
   counts its characters, and the reader does nothing once `eof` is set and its raw buffer is
   empty. Only those versions are given predecoded input; any other, and any input that fails
   a check, is read through libyaml's own reader, which then reports the problem itself. */

/* Whether a character of `width` bytes at `bytes` (the lead byte and its continuation bytes,
   all present) is well-formed UTF-8 for a character libyaml's reader accepts: #x85,
   #xA0-#xD7FF, #xE000-#xFFFD and #x10000-#x10FFFF (the ASCII ones are checked by the caller). */
static inline int wiring_accepted_sequence(const unsigned char *bytes, size_t width) {
    unsigned int value;
    switch (width) {
    case 2: value = bytes[0] & 0x1F; break;
    case 3: value = bytes[0] & 0x0F; break;
    default: value = bytes[0] & 0x07; break;
    }
    for (size_t k = 1; k < width; k++) {
        if ((bytes[k] & 0xC0) != 0x80) return 0;
        value = (value << 6) | (bytes[k] & 0x3F);
    }
    /* The shortest encoding only. */
    if ((width == 2 && value < 0x80) || (width == 3 && value < 0x800) || (width == 4 && value < 0x10000)) return 0;
    return value == 0x85 || (value >= 0xA0 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0xFFFD)
        || (value >= 0x10000 && value <= 0x10FFFF);
}

/* Whether `byte` is not a whole character libyaml's reader accepts on its own: all but #x9,
   #xA, #xD and #x20-#x7E. */
static inline int wiring_not_plain_byte(unsigned char byte) {
    return (unsigned char)(byte - 0x20u) > 0x5Eu && byte != '\n' && byte != '\t' && byte != '\r';
}

/* Sixteen bytes at once, with the compiler's vector extension (SSE2 or NEON). */
typedef unsigned char wiring_byte_vector __attribute__((vector_size(16)));

/* Whether any of the 64 bytes at `bytes` is not plain (see `wiring_not_plain_byte`). */
static inline int wiring_block_has_not_plain(const unsigned char *bytes) {
    wiring_byte_vector found = {0};
    for (int part = 0; part < 4; part++) {
        wiring_byte_vector v;
        memcpy(&v, bytes + 16 * part, 16);
        /* Each comparison gives 0xFF where it holds. */
        found |= (wiring_byte_vector)((wiring_byte_vector)(v - 0x20) > 0x5E) & (wiring_byte_vector)(v != '\n')
            & (wiring_byte_vector)(v != '\t') & (wiring_byte_vector)(v != '\r');
    }
    unsigned long long halves[2];
    memcpy(halves, &found, 16);
    return (halves[0] | halves[1]) != 0;
}

/* How many characters `bytes` holds, when every one is a character libyaml's reader accepts
   in UTF-8 input (#x9, #xA, #xD, #x20-#x7E, and the wider ones above); (size_t)-1 otherwise. */
static inline size_t wiring_accepted_characters(const unsigned char *bytes, size_t count) {
    size_t characters = 0, index = 0;
    while (index < count) {
        /* Blocks of plain ASCII, the common case, sixty-four bytes at a time. */
        size_t end = count - index >= 64 ? index + 64 : count;
        if (end - index == 64 && !wiring_block_has_not_plain(bytes + index)) {
            characters += end - index;
            index = end;
            continue;
        }
        /* A block with wider characters (or one libyaml refuses), or the last few bytes:
           character by character, to the end of the block or of the character that straddles it. */
        while (index < end) {
            unsigned char lead = bytes[index];
            if (!wiring_not_plain_byte(lead)) {
                characters += 1;
                index += 1;
                continue;
            }
            size_t width = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
            if (width == 0 || count - index < width || !wiring_accepted_sequence(bytes + index, width)) return (size_t)-1;
            characters += 1;
            index += width;
        }
    }
    return characters;
}

/* The scanner's buffer while the parser reads predecoded input, and libyaml's own, which goes
   back before `yaml_parser_delete` frees it. */
typedef struct wiring_predecoded_input {
    yaml_char_t *bytes;
    yaml_char_t *saved_start, *saved_end, *saved_pointer, *saved_last;
} wiring_predecoded_input;

/* NULs after the input: the scanner stops at the first, but may look a few characters ahead
   before it gets there, as it may in libyaml's own buffer. */
#define WIRING_PREDECODED_PADDING 8

/* Gives `parser` (initialized, with no input yet) the bytes of `first` then those of `second`
   (either may be empty) as predecoded input; 1 when it did, and `wiring_parser_restore_buffer`
   must then run before `yaml_parser_delete`. 0 when this libyaml's reader is not known to
   work that way, the input is not UTF-8 libyaml accepts, or memory ran out: the caller then
   sets the input the usual way. A leading byte order mark is skipped, as libyaml skips it. */
static inline int wiring_parser_set_predecoded_input(
    yaml_parser_t *parser, wiring_predecoded_input *input,
    const unsigned char *first, size_t first_count, const unsigned char *second, size_t second_count
) {
    int major = 0, minor = 0, patch = 0;
    yaml_get_version(&major, &minor, &patch);
    if (major != 0 || minor < 1 || minor > 2) return 0;
    if (first_count >= 3 && first[0] == 0xEF && first[1] == 0xBB && first[2] == 0xBF) {
        first += 3;
        first_count -= 3;
    } else if (first_count == 0 && second_count >= 3 && second[0] == 0xEF && second[1] == 0xBB && second[2] == 0xBF) {
        second += 3;
        second_count -= 3;
    }
    /* A character never spans the two parts: each is checked on its own. */
    size_t first_characters = wiring_accepted_characters(first, first_count);
    if (first_characters == (size_t)-1) return 0;
    size_t second_characters = wiring_accepted_characters(second, second_count);
    if (second_characters == (size_t)-1) return 0;

    size_t count = first_count + second_count;
    yaml_char_t *bytes = (yaml_char_t *)malloc(count + WIRING_PREDECODED_PADDING);
    if (!bytes) return 0;
    if (first_count) memcpy(bytes, first, first_count);
    if (second_count) memcpy(bytes + first_count, second, second_count);
    memset(bytes + count, 0, WIRING_PREDECODED_PADDING);

    /* The reader must have a source (it asserts one) and never reads it: `eof` is set. */
    yaml_parser_set_input_string(parser, bytes, count);
    yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING);
    input->bytes = bytes;
    input->saved_start = parser->buffer.start;
    input->saved_end = parser->buffer.end;
    input->saved_pointer = parser->buffer.pointer;
    input->saved_last = parser->buffer.last;
    parser->buffer.start = bytes;
    parser->buffer.pointer = bytes;
    parser->buffer.last = bytes + count + 1;
    parser->buffer.end = bytes + count + WIRING_PREDECODED_PADDING;
    parser->unread = first_characters + second_characters + 1; /* and the NUL */
    parser->offset = count;
    parser->eof = 1;
    return 1;
}

/* Puts libyaml's own buffer back and frees the predecoded input. */
static inline void wiring_parser_restore_buffer(yaml_parser_t *parser, wiring_predecoded_input *input) {
    parser->buffer.start = input->saved_start;
    parser->buffer.end = input->saved_end;
    parser->buffer.pointer = input->saved_pointer;
    parser->buffer.last = input->saved_last;
    free(input->bytes);
    input->bytes = 0;
}

#endif
