package dsa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A DP table's steps, 1-D or 2-D; a cell not computed yet is null. */
public final class TableRecorder {
    private final Object[] cells;
    private final int rows;
    private final int cols;
    private final boolean flat;
    private final List<String> rowLabels;
    private final List<String> colLabels;

    /** A 1-D table of n cells. */
    public TableRecorder(int n) { this(n, 1, true, null, null); }

    /** A 2-D table of rows by cols cells. */
    public TableRecorder(int rows, int cols) { this(rows, cols, false, null, null); }

    /** A 2-D table with row and column headers (null for none). */
    public TableRecorder(int rows, int cols, String[] rowLabels, String[] colLabels) {
        this(rows, cols, false, rowLabels, colLabels);
    }

    private TableRecorder(int rows, int cols, boolean flat, String[] rowLabels, String[] colLabels) {
        this.cells = new Object[rows * cols];
        this.rows = rows;
        this.cols = cols;
        this.flat = flat;
        this.rowLabels = rowLabels == null ? null : Arrays.asList(rowLabels.clone());
        this.colLabels = colLabels == null ? null : Arrays.asList(colLabels.clone());
    }

    private int at(int[] cell) {
        if (flat && cell.length == 1 && cell[0] >= 0 && cell[0] < rows) return cell[0];
        if (!flat && cell.length == 2 && cell[0] >= 0 && cell[0] < rows && cell[1] >= 0 && cell[1] < cols) {
            return cell[0] * cols + cell[1];
        }
        throw new RecorderError("no cell " + Arrays.toString(cell) + " in this table");
    }

    /** A 1-D table's cell i (null when not computed yet). */
    public Object get(int i) { return cells[at(new int[] {i})]; }

    /** A 2-D table's cell (null when not computed yet). */
    public Object get(int row, int col) { return cells[at(new int[] {row, col})]; }

    /** Sets a 1-D table's cell without a step (base cases before the first step). */
    public void set(int i, Object value) { cells[at(new int[] {i})] = Recorder.normalized(value); }

    /** Sets a 2-D table's cell without a step. */
    public void set(int row, int col, Object value) { cells[at(new int[] {row, col})] = Recorder.normalized(value); }

    public void fill(int i, Object value, int[] reads) { fill(i, value, reads, null); }

    /** Sets a 1-D table's cell i to value, computed from the cells reads. */
    public void fill(int i, Object value, int[] reads, String caption) {
        int[][] pairs = new int[reads.length][];
        for (int k = 0; k < reads.length; k++) pairs[k] = new int[] {reads[k]};
        fill(new int[] {i}, value, pairs, caption);
    }

    public void fill(int row, int col, Object value, int[][] reads) { fill(row, col, value, reads, null); }

    /** Sets a 2-D table's cell (row, col) to value, computed from the cells reads ({row, col} each). */
    public void fill(int row, int col, Object value, int[][] reads, String caption) {
        fill(new int[] {row, col}, value, reads, caption);
    }

    private void fill(int[] cell, Object value, int[][] reads, String caption) {
        cells[at(cell)] = Recorder.normalized(value);
        for (int[] read : reads) at(read);
        StringBuilder where = new StringBuilder();
        for (int index : cell) where.append(where.length() > 0 ? "," : "").append(index);
        step("fill", cell, reads, caption != null ? caption : "Cell (" + where + ") = " + Recorder.json(cells[at(cell)]));
    }

    public void step(String action) { step(action, null, new int[0][], action); }

    public void step(String action, String caption) { step(action, null, new int[0][], caption != null ? caption : action); }

    private void step(String action, int[] cell, int[][] reads, String caption) {
        Object table;
        if (flat) {
            table = Arrays.asList(cells);
        } else {
            List<Object> written = new ArrayList<>();
            for (int row = 0; row < rows; row++) written.add(Arrays.asList(Arrays.copyOfRange(cells, row * cols, (row + 1) * cols)));
            table = written;
        }
        StepLine line = new StepLine(action).field("table", table);
        if (rowLabels != null) line.field("row_labels", rowLabels);
        if (colLabels != null) line.field("col_labels", colLabels);
        line.field("cell", cell).field("reads", reads).finish(caption);
    }
}
