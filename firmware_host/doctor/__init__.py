"""``draughtsboard doctor``: checks a board's setup on the Pi and says how to fix each problem.

One module per group of checks (:mod:`~firmware_host.doctor.accounts`,
:mod:`~firmware_host.doctor.devices`, :mod:`~firmware_host.doctor.pins`,
:mod:`~firmware_host.doctor.redis`, :mod:`~firmware_host.doctor.network`,
:mod:`~firmware_host.doctor.storage`, :mod:`~firmware_host.doctor.clock`,
:mod:`~firmware_host.doctor.config`); each returns :class:`~firmware_host.doctor.report.Check`
values and reads the machine only through a :class:`~firmware_host.doctor.system.System`.
:func:`~firmware_host.doctor.runner.run_checks` runs them all.
"""
