"""The inclusion engine: which JSON documents one schema accepts and another refuses.

One question, asked of :class:`~codegen.breaking.engine.solver.Solver`: is there a value
satisfying a conjunction of literals (schemas accepted or refused)? The answer is a value
(checked), a proof that there is none, or the reason it cannot be decided.

* ``nodes``: schemas in their tree, ``$ref``, sameness of two versions' nodes;
* ``evaluate``: the engine's own validator; ``components``: the judge of one component;
* ``evaluation``: what passing subschemas evaluated, for ``unevaluated*``;
* ``literals``: literals, atoms, components; ``positive``/``negative``/``expand``: the
  expansion of literals into atoms for one kind of value;
* ``solver`` (scalars), ``arrays``, ``objects``: values satisfying atoms; ``facts``: the
  answers and the judges of atoms they share;
* ``subsets``: proofs that one schema includes another, read from what they say, with the
  keyword rules in ``implications``;
* ``inclusion``: both directions of a contract pair, each break located and witnessed.
"""
