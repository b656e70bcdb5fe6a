package dsa;

/** A call the recorder refuses: too many steps, or a value JSON cannot hold (NaN, Infinity). */
public final class RecorderError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RecorderError(String message) { super(message); }
}
