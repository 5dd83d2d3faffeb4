package org.hetscope.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The commands an end-to-end case runs, as the help lists them ("stats", "memory residency"); the suite fails
 * when a command of README.md or of {@code ./hetscope --help} has no case that names it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface Covers {
    String[] value();
}
