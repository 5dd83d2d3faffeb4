package org.hetscope.model;

/** Receives how far a long operation has come, in units it announced (usually input bytes). */
public interface Progress {

    Progress NONE = new Progress() {
        @Override
        public void start(String label, long total) {}

        @Override
        public void advance(long done) {}

        @Override
        public void finish() {}
    };

    /** @param total the amount of work, or -1 when unknown */
    void start(String label, long total);

    /** @param done the amount of work done so far (absolute, not a delta) */
    void advance(long done);

    void finish();
}
