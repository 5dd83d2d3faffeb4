package org.hetscope.cli.mining;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code hetscope mine ...}: frequent and closed patterns, contention windows, scalability bottlenecks. */
@Command(name = "mine", mixinStandardHelpOptions = true, description = "Mine traces for frequent patterns, contention and scalability bottlenecks.",
        subcommands = {
            TransactionsCommand.class,
            PatternCommand.Itemsets.class,
            PatternCommand.Closed.class,
            PatternCommand.Sequences.class,
            ContentionCommand.class,
            ScalabilityCommand.class,
            GenerateCommand.class,
        })
public final class MineCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
