"""What a generated class's field types cannot say, compiled to guard clauses.

* :mod:`.support`: refuse what no model can decide (a vocabulary it does not know);
* :mod:`.guards` (with :mod:`.applicators`): what each draft 2020-12 keyword checks, in Python;
* :mod:`.predicates`: one predicate function per schema object, tidied by :mod:`.tidy` and
  :mod:`.inline`; :mod:`.predicate_runtime`: the helpers they call, held once by a package;
  :mod:`.dispatch`: a run of rules keyed on one property's value, decided by one lookup;
* :mod:`.validators`: the validator of each class, which calls them, reading only what its
  checks look at (:mod:`.footprint`); :mod:`.class_guards`: its guard clauses.

May import the core, :mod:`codegen.generate.rules` and :mod:`codegen.generate.models.types`
(what the skeleton left over is what these check).
"""
