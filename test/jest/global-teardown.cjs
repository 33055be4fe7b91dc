module.exports = () => require('./database-template.cjs').teardown()
