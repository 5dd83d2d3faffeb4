package org.hetscope.formats.chrome;

/**
 * The fields of the Chrome event being read. One instance is reused for every event, so the hot path allocates
 * only the strings that end up in the model.
 */
final class EventFields {
    String ph;
    String cat;
    String name;
    String pid;
    String tid;
    boolean hasTs;
    long ts;
    boolean hasDur;
    long dur;
    String id;
    String bp;
    String scope;
    /** The args object as JSON text, or null. */
    String args;
    /** Why the event cannot be used (a field of the wrong type, a bad number), or null: it is skipped and counted. */
    String bad;
    /** Byte offset of the event's opening brace, for messages. */
    long offset;
    long line;

    // Values picked out of args while copying it.
    boolean hasCorrelation;
    long correlation;
    boolean hasDevice;
    long device;
    boolean hasStream;
    long stream;
    boolean hasBytes;
    long bytes;
    String kindArg;
    Integer registers;
    Long sharedMemory;
    long[] grid = new long[3];
    int gridLen;
    long[] block = new long[3];
    int blockLen;
    String nameArg;
    String labelsArg;
    boolean hasSortIndex;
    long sortIndex;
    /** Numeric args in order, for counters ('C' events and profiler ranges). */
    String[] numericKeys = new String[16];
    double[] numericValues = new double[16];
    int numericCount;

    void reset() {
        ph = null;
        cat = null;
        name = null;
        pid = null;
        tid = null;
        hasTs = false;
        hasDur = false;
        id = null;
        bp = null;
        scope = null;
        args = null;
        bad = null;
        hasCorrelation = false;
        hasDevice = false;
        hasStream = false;
        hasBytes = false;
        kindArg = null;
        registers = null;
        sharedMemory = null;
        gridLen = 0;
        blockLen = 0;
        nameArg = null;
        labelsArg = null;
        hasSortIndex = false;
        numericCount = 0;
    }

    void addNumeric(String key, double value) {
        if (numericCount == numericKeys.length) {
            numericKeys = java.util.Arrays.copyOf(numericKeys, numericCount * 2);
            numericValues = java.util.Arrays.copyOf(numericValues, numericCount * 2);
        }
        numericKeys[numericCount] = key;
        numericValues[numericCount] = value;
        numericCount++;
    }
}
