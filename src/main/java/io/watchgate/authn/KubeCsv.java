package io.watchgate.authn;

import java.util.ArrayList;
import java.util.List;

/**
 * CSV read as Go's {@code encoding/csv} reads it with the settings kube-apiserver's token file uses
 * ({@code FieldsPerRecord = -1}, no {@code TrimLeadingSpace}, no {@code LazyQuotes}, no comment character): records
 * of any number of fields, blank lines skipped, spaces kept, {@code "} only at the start of a field (then
 * {@code ""} is a quote and the field may span lines), CRLF read as LF. Errors name a line and column, never the
 * text: a token file's text is secret.
 */
final class KubeCsv {

    /** The fields of one record, and the line it starts on (1-based). */
    record Record(List<String> fields, int line) {
    }

    /** Text that is not CSV as Go reads it. */
    static final class SyntaxError extends Exception {
        SyntaxError(int startLine, int line, int column, String problem) {
            super(startLine == line ? "parse error on line " + line + ", column " + column + ": " + problem
                    : "record on line " + startLine + "; parse error on line " + line + ", column " + column + ": "
                            + problem);
        }
    }

    private final String text;
    private int pos;
    private int line = 1;
    private int lineStart;
    private int previousLineStart;

    private KubeCsv(String text) {
        this.text = text;
    }

    /** The records of {@code text}, in order. */
    static List<Record> read(String text) throws SyntaxError {
        // Go normalizes each line's CRLF to LF (inside quotes too) and drops a CR that ends the input
        String normalized = text.replace("\r\n", "\n");
        if (normalized.endsWith("\r")) {
            normalized = normalized.substring(0, normalized.length() - 1);
        }
        KubeCsv reader = new KubeCsv(normalized);
        List<Record> records = new ArrayList<>();
        while (reader.pos < reader.text.length()) {
            if (reader.text.charAt(reader.pos) == '\n') { // an empty line is no record
                reader.newLine(reader.pos + 1);
                continue;
            }
            records.add(reader.record());
        }
        return records;
    }

    private Record record() throws SyntaxError {
        int startLine = line;
        List<String> fields = new ArrayList<>();
        while (true) {
            boolean more = pos < text.length() && text.charAt(pos) == '"' ? quoted(startLine, fields)
                    : unquoted(startLine, fields);
            if (!more) {
                return new Record(fields, startLine);
            }
        }
    }

    /** Reads a field that does not start with a quote; whether another field follows on the record. */
    private boolean unquoted(int startLine, List<String> fields) throws SyntaxError {
        // the field's own characters only: looking for a quote further on would make a file of many fields quadratic
        int end = pos;
        while (end < text.length() && text.charAt(end) != ',' && text.charAt(end) != '\n') {
            if (text.charAt(end) == '"') {
                throw new SyntaxError(startLine, line, end - lineStart + 1, "bare \" in non-quoted-field");
            }
            end++;
        }
        fields.add(text.substring(pos, end));
        return advancePast(end);
    }

    /** Reads a field in quotes, which may span lines; whether another field follows on the record. */
    private boolean quoted(int startLine, List<String> fields) throws SyntaxError {
        StringBuilder field = new StringBuilder();
        int at = pos + 1;
        while (true) {
            int quote = text.indexOf('"', at);
            int segmentEnd = quote < 0 ? text.length() : quote;
            for (int i = at; i < segmentEnd; i++) {
                if (text.charAt(i) == '\n') {
                    newLine(i + 1);
                }
            }
            field.append(text, at, segmentEnd);
            if (quote < 0) {
                // Go places the error at the end of the last line read, before its newline if it has one
                boolean endsLine = text.endsWith("\n");
                throw new SyntaxError(startLine, endsLine ? line - 1 : line,
                        text.length() - (endsLine ? previousLineStart + 1 : lineStart) + 1,
                        "extraneous or missing \" in quoted-field");
            }
            int next = quote + 1;
            if (next < text.length() && text.charAt(next) == '"') {
                field.append('"');
                at = next + 1;
                continue;
            }
            if (next < text.length() && text.charAt(next) != ',' && text.charAt(next) != '\n') {
                throw new SyntaxError(startLine, line, next - lineStart + 1,
                        "extraneous or missing \" in quoted-field");
            }
            fields.add(field.toString());
            return advancePast(next);
        }
    }

    /** Moves past the separator at {@code end}: true after a comma, false at the end of a line or the text. */
    private boolean advancePast(int end) {
        if (end < text.length() && text.charAt(end) == ',') {
            pos = end + 1;
            return true;
        }
        if (end < text.length()) {
            newLine(end + 1);
        } else {
            pos = end;
        }
        return false;
    }

    private void newLine(int start) {
        line++;
        previousLineStart = lineStart;
        lineStart = start;
        pos = start;
    }
}
