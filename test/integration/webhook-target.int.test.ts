import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, type TestUser } from '../helpers/tokens'

/** Issue 8, item 11: notificationWebhook refuses private targets and credentials unless the setting allows them. */
describe('notificationWebhook targets', () => {
  const create = (api: TestApi, user: TestUser, notificationWebhook: string) =>
    request(api.app)
      .post('/v1/orgs')
      .set('Authorization', `Bearer ${user.token}`)
      .send({
        name: `Hooks ${Math.random().toString(36).slice(2, 8)}`,
        description: 'Webhook test',
        notificationWebhook,
      })

  describe('by default (production: NETWORK_ALLOW_PRIVATE_TARGETS unset)', () => {
    let api: TestApi
    let user: TestUser

    beforeAll(async () => {
      // The test helper allows private targets for the agents of other tests; '' is unset, as in production.
      api = await startApi({ NETWORK_ALLOW_PRIVATE_TARGETS: '' })
      user = await aUserWithToken(api)
    })

    afterAll(async () => {
      await api?.stop()
    })

    it.each([
      'http://127.0.0.1:9000/hook',
      'http://2130706433/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://metadata.google.internal/computeMetadata/v1/',
      'https://user:pass@hooks.example.com/idplane',
    ])('refuses %s with a 400 naming the field', async (url) => {
      const res = await create(api, user, url)
      expect(res.status).toBe(400)
      expect(res.body.errors).toEqual([{ field: 'notificationWebhook', message: expect.any(String) }])
    })

    it('accepts a public https URL', async () => {
      const res = await create(api, user, 'https://hooks.example.com/idplane')
      expect(res.status).toBe(201)
      expect(res.body.data.notificationWebhook).toBe('https://hooks.example.com/idplane')
    })
  })

  describe('with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (the older name of NETWORK_ALLOW_PRIVATE_TARGETS)', () => {
    let api: TestApi
    let user: TestUser

    beforeAll(async () => {
      api = await startApi({ NETWORK_ALLOW_PRIVATE_TARGETS: '', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })
      user = await aUserWithToken(api)
    })

    afterAll(async () => {
      await api?.stop()
    })

    it('accepts a loopback receiver but still refuses credentials in the URL', async () => {
      expect((await create(api, user, 'http://127.0.0.1:9000/hook')).status).toBe(201)
      expect((await create(api, user, 'http://user:pass@127.0.0.1:9000/hook')).status).toBe(400)
    })
  })
})
