// The `embedded` jest project (jest.config.js): its suites run on the embedded defaults whatever the run's environment
// says. Jest gives each test file its own copy of process.env, so this changes only the file being set up; the test
// helpers pass the environment to the processes they start explicitly, from this copy.
for (const name of ['DATABASE_URL', 'AMQP_URL', 'SMTP_URL']) delete process.env[name]
