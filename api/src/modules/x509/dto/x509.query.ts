import { IsIn, IsOptional } from 'class-validator'
import { X509_PURPOSES } from './x509-certificate.dto'

/**
 * `GET /x509/:orgId?purpose=&status=`. The literal unions are spelled out so that the design type is String:
 * routing-controllers parses a query value of an Object-typed property as JSON (`issuance` would be a 400).
 */
export class ListX509CertificatesQuery {
  @IsOptional() @IsIn(X509_PURPOSES) purpose?: 'issuance' | 'verification' | 'authority'
  @IsOptional() @IsIn(['active', 'inactive']) status?: 'active' | 'inactive'
}
