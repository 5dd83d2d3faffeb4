package org.hetscope.capture.kernels.cfg;

import java.util.List;
import org.hetscope.capture.kernels.lang.Ast;

/**
 * A control-flow edge; {@code to} is {@link Cfg#EXIT} when the edge leaves the function. Edge ids are dense per
 * function. {@code caseValues} lists the case labels of a {@link EdgeKind#CASE} edge.
 */
public record Edge(int id, int from, int to, EdgeKind kind, List<Ast.Expr> caseValues) {}
