module.exports = () => require('./database-template.cjs').setup()
