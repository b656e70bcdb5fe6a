package dsa;

import java.util.ArrayList;
import java.util.List;

/**
 * String matching's steps (naive, KMP, Rabin-Karp): a pattern's window over a text, indexed by
 * character (code point).
 */
public final class MatchRecorder {
    private final String text;
    private final String pattern;
    private final int[] textPoints;
    private final int[] patternPoints;
    private int offset;
    private Integer index;
    private final List<Integer> found = new ArrayList<>();
    private int[] failure;
    private Long windowHash;
    private Long patternHash;

    public MatchRecorder(String text, String pattern) {
        this.text = text;
        this.pattern = pattern;
        this.textPoints = text.codePoints().toArray();
        this.patternPoints = pattern.codePoints().toArray();
    }

    public List<Integer> found() { return new ArrayList<>(found); }

    /** KMP's failure table: written with every step from now on (with failure_at). */
    public void setFailure(int[] failure) { this.failure = failure.clone(); }

    public void compare(int offset, int index) { compare(offset, index, null); }

    /** Compares text[offset + index] with pattern[index]. */
    public void compare(int offset, int index, String caption) {
        String fallback = caption != null ? caption : "Compare text[" + (offset + index) + "] ("
            + Recorder.json(new String(textPoints, offset + index, 1)) + ") with pattern[" + index + "] ("
            + Recorder.json(new String(patternPoints, index, 1)) + ")";
        this.offset = offset;
        this.index = index;
        step("compare", null, fallback);
    }

    public void shift(int offset, int index) { shift(offset, index, null); }

    /** Slides the pattern to offset, going on at pattern[index]. */
    public void shift(int offset, int index, String caption) {
        this.offset = offset;
        this.index = index;
        step("shift", null, caption != null ? caption : "Shift the pattern to offset " + offset);
    }

    public void shiftByFailure(int failureAt) { shiftByFailure(failureAt, null); }

    /** KMP after a mismatch at pattern[j]: goes on at failure[failureAt] (j - 1), the offset moving with it. */
    public void shiftByFailure(int failureAt, String caption) {
        if (failure == null) throw new RecorderError("shiftByFailure needs the failure table: call setFailure first");
        int resume = failure[failureAt];
        offset += (index == null ? 0 : index) - resume;
        index = resume;
        step("shift", failureAt, caption != null ? caption
            : "failure[" + failureAt + "] is " + resume + ": shift the pattern to offset " + offset);
    }

    public void match(int offset) { match(offset, null); }

    /** The pattern occurs at offset: it joins found. */
    public void match(int offset, String caption) {
        this.offset = offset;
        found.add(offset);
        step("found", null, caption != null ? caption : "Found the pattern at offset " + offset);
    }

    public void hash(int offset, long windowHash, long patternHash) { hash(offset, windowHash, patternHash, null); }

    /** Rabin-Karp: the window at offset has windowHash; both hashes are written from now on. */
    public void hash(int offset, long windowHash, long patternHash, String caption) {
        this.offset = offset;
        this.index = null;
        this.windowHash = windowHash;
        this.patternHash = patternHash;
        step("hash", null, caption != null ? caption
            : "Offset " + offset + ": window hash " + windowHash + ", pattern hash " + patternHash);
    }

    public void step(String action) { step(action, null, action); }

    public void step(String action, String caption) { step(action, null, caption != null ? caption : action); }

    private void step(String action, Integer failureAt, String caption) {
        StepLine line = new StepLine(action).field("text", text).field("pattern", pattern).field("offset", offset)
            .field("index", index).field("found", found);
        if (failure != null) line.field("failure", failure).field("failure_at", failureAt);
        if (windowHash != null) line.field("window_hash", windowHash).field("pattern_hash", patternHash);
        line.finish(caption);
    }
}
